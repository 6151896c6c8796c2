// @ts-check
// A code review: the changed files with their counts, each file's hunks with old and
// new line numbers, added and removed lines marked, long unchanged runs folded.
// Comments go on a line (click its number), a range (shift-click another), a file, or
// the whole change; each stays editable until sent, and is read back by comments().
// Rust reads the diff (ReviewView) and words the comments for the agent; everything
// here is text. Lines come in chunks the browser lays out only when scrolled to, so a
// long diff shows its first screen at once.
//
// State it owns: each review's last clicked line and the box it opened (`anchors`),
// for shift-click ranges: the range's box takes the place of that one while it is empty.

import { el } from "./dom.js";
import { tr } from "./text.js";

/** Lines per chunk laid out on its own. */
const CHUNK = 100;
/** Unchanged lines folded when a run is longer than this, keeping FOLD_KEEP at each end. */
const FOLD_OVER = 8;
const FOLD_KEEP = 3;

/** @type {WeakMap<HTMLElement, {file: string, n: number, old: boolean, box: HTMLElement}>} review -> last clicked line and its comment box */
const anchors = new WeakMap();

/** @param {ChangedFile} f */
function note(f) {
  if (f.binary) return tr("window-review-binary");
  if (f.status === "renamed" && f.oldPath) return `${tr("window-review-renamed")} ${f.oldPath}`;
  if (f.status === "added") return tr("window-review-added");
  if (f.status === "deleted") return tr("window-review-deleted");
  return "";
}

/** @param {ChangedFile} f */
function counts(f) {
  return el(
    "span",
    { class: "counts" },
    el("span", { class: "add", text: `+${f.added}` }),
    " ",
    el("span", { class: "del", text: `−${f.removed}` }),
  );
}

/**
 * A comment box, editable until sent.
 * @param {{file?: string, from?: number, to?: number, old?: boolean}} at
 */
function commentBox(at) {
  const box = el("div", { class: "review-comment" });
  if (at.file) box.dataset.file = at.file;
  if (at.from !== undefined) {
    box.dataset.from = String(at.from);
    box.dataset.to = String(at.to ?? at.from);
  }
  if (at.old) box.dataset.old = "1";
  const where = at.from === undefined ? "" : at.from === at.to ? `${at.from}` : `${at.from}–${at.to}`;
  const text = el("textarea", {
    class: "comment-text",
    "aria-label": tr("window-review-comment"),
    placeholder: tr("window-review-comment"),
  });
  box.append(
    el("span", { class: "where", text: where }),
    text,
    el("button", {
      type: "button",
      class: "remove-comment",
      text: tr("window-review-remove"),
      onclick: () => box.remove(),
    }),
  );
  return box;
}

/** A line's row: its numbers (clickable, to comment), its sign and its text. @param {DiffLine} l @param {string} file */
function lineRow(l, file) {
  const kind = l.kind === "+" ? "add" : l.kind === "-" ? "del" : "ctx";
  const row = el(
    "div",
    { class: `line ${kind}` },
    el("button", { type: "button", class: "no old", text: l.old === null ? "" : String(l.old), tabIndex: -1 }),
    el("button", { type: "button", class: "no new", text: l.new === null ? "" : String(l.new), tabIndex: -1 }),
    el("span", { class: "code", text: `${l.kind}${l.text}` }),
  );
  row.dataset.file = file;
  // A removed line is known by its old number; any other by its new one.
  const old = l.new === null;
  row.dataset.n = String(old ? l.old : l.new);
  if (old) row.dataset.old = "1";
  return row;
}

/**
 * A hunk's lines in chunks, long unchanged runs folded behind a button.
 * @param {DiffHunk} h @param {string} file
 */
function hunkNode(h, file) {
  const node = el("div", { class: "hunk" }, el("div", { class: "hunk-header", text: h.header }));
  /** @type {HTMLElement[]} */
  const rows = [];
  let i = 0;
  while (i < h.lines.length) {
    let j = i;
    while (j < h.lines.length && h.lines[j].kind === " ") j++;
    const run = j - i;
    if (run > FOLD_OVER) {
      for (const l of h.lines.slice(i, i + FOLD_KEEP)) rows.push(lineRow(l, file));
      const hidden = h.lines.slice(i + FOLD_KEEP, j - FOLD_KEEP).map((l) => lineRow(l, file));
      const fold = el("div", { class: "fold" });
      fold.append(
        el("button", {
          type: "button",
          text: `⋯ ${hidden.length} ${tr("window-review-unchanged")}`,
          onclick: () => fold.replaceWith(...hidden),
        }),
      );
      rows.push(fold);
      for (const l of h.lines.slice(j - FOLD_KEEP, j)) rows.push(lineRow(l, file));
      i = j;
    } else if (run > 0) {
      for (const l of h.lines.slice(i, j)) rows.push(lineRow(l, file));
      i = j;
    } else {
      rows.push(lineRow(h.lines[i], file));
      i++;
    }
  }
  for (let c = 0; c < rows.length; c += CHUNK) node.append(el("div", { class: "chunk" }, ...rows.slice(c, c + CHUNK)));
  return node;
}

/** @param {ChangedFile} f */
function fileNode(f) {
  const comments = el("div", { class: "file-comments" });
  const section = el(
    "section",
    { class: "review-file" },
    el(
      "header",
      {},
      el("strong", { class: "path", text: f.path }),
      note(f) ? el("span", { class: "note", text: note(f) }) : null,
      counts(f),
      el("button", {
        type: "button",
        class: "file-comment",
        text: tr("window-review-file-comment"),
        onclick: () => {
          const box = commentBox({ file: f.path });
          comments.append(box);
          /** @type {HTMLElement} */ (box.querySelector("textarea")).focus();
        },
      }),
    ),
    comments,
  );
  section.dataset.file = f.path;
  for (const h of f.hunks) section.append(hunkNode(h, f.path));
  return section;
}

/**
 * The review of an ask's files.
 * @param {ChangedFile[]} files
 */
export function reviewNode(files) {
  const review = el(
    "div",
    { class: "review" },
    el("p", { class: "review-hint", text: tr("window-review-hint") }),
    el(
      "ul",
      { class: "review-files" },
      ...files.map((f) => el("li", {}, el("span", { class: "path", text: f.path }), " ", counts(f))),
    ),
    ...files.map(fileNode),
    el(
      "label",
      { class: "review-overall" },
      el("span", { text: tr("window-review-overall") }),
      el("textarea", { class: "overall-text" }),
    ),
  );
  review.addEventListener("click", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (!target.classList.contains("no")) return;
    const row = /** @type {HTMLElement} */ (target.closest(".line"));
    const at = { file: row.dataset.file || "", n: Number(row.dataset.n), old: row.dataset.old === "1" };
    const last = anchors.get(review);
    const range = e.shiftKey && last && last.file === at.file && last.old === at.old;
    const from = range ? Math.min(last.n, at.n) : at.n;
    const to = range ? Math.max(last.n, at.n) : at.n;
    if (range && !(/** @type {HTMLTextAreaElement} */ (last.box.querySelector("textarea")).value.trim()))
      last.box.remove();
    const box = commentBox({ file: at.file, from, to, old: at.old });
    row.after(box);
    anchors.set(review, { ...at, box });
    /** @type {HTMLElement} */ (box.querySelector("textarea")).focus();
  });
  return review;
}

/**
 * The comments written in a review, for `request_changes`.
 * @param {HTMLElement} form
 * @returns {ReviewComment[]}
 */
export function comments(form) {
  /** @type {ReviewComment[]} */
  const out = [];
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".review-comment"))) {
    const text = /** @type {HTMLTextAreaElement} */ (box.querySelector("textarea")).value;
    const lines = box.dataset.from
      ? /** @type {[number, number]} */ ([Number(box.dataset.from), Number(box.dataset.to)])
      : null;
    out.push({ file: box.dataset.file || null, lines, old: box.dataset.old === "1", text });
  }
  const overall = /** @type {HTMLTextAreaElement | null} */ (form.querySelector("textarea.overall-text"));
  if (overall && overall.value.trim()) out.push({ file: null, lines: null, old: false, text: overall.value });
  return out;
}
