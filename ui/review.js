// @ts-check
// A code review: the changed files with their counts, each file's hunks with old and
// new line numbers, added and removed lines marked, long unchanged runs folded.
// Comments go on a line (click its number), a range (shift-click another), a file, or
// the whole change; each stays editable until sent, and is read back by comments().
// Rust reads the diff (ReviewView) and words the comments for the agent; everything
// here is text. Lines come in chunks of 100: the first few are built at once, the rest
// are empty blocks of their height, built when scrolled near, so a long diff shows its
// first screen without building, or laying out, the rest.
//
// State it owns: each review's last clicked line and the box it opened (`anchors`),
// for shift-click ranges: the range's box takes the place of that one while it is empty;
// the chunks not yet built (`unbuilt`) and the observer that builds them (`builder`).

import { el } from "./dom.js";
import { tr } from "./text.js";

/** Lines per chunk laid out on its own. */
const CHUNK = 100;
/** Unchanged lines folded when a run is longer than this, keeping FOLD_KEEP at each end. */
const FOLD_OVER = 8;
const FOLD_KEEP = 3;

/** @type {WeakMap<HTMLElement, {file: string, n: number, old: boolean, box: HTMLElement}>} review -> last clicked line and its comment box */
const anchors = new WeakMap();
/** Lines built at once in a review; the chunks after them wait until scrolled near. */
const EAGER = 300;

/** @type {WeakMap<Element, () => HTMLElement[]>} chunk -> how to build its lines */
const unbuilt = new WeakMap();
/** @type {IntersectionObserver | null} */
let builder = null;

/** Builds a waiting chunk's lines. @param {Element} chunk */
function build(chunk) {
  const make = unbuilt.get(chunk);
  if (!make) return;
  unbuilt.delete(chunk);
  builder?.unobserve(chunk);
  /** @type {HTMLElement} */ (chunk).style.minHeight = "";
  chunk.replaceChildren(...make());
}

/**
 * Forgets the chunks of `form` not yet built, before its elements go back to the pool
 * (a pooled element must not be built into, nor watched, later).
 * @param {HTMLElement} form
 */
export function release(form) {
  for (const node of form.querySelectorAll(".review .chunk")) {
    if (unbuilt.delete(node)) builder?.unobserve(node);
  }
}

/** A chunk of `count` lines built by `make` now, or once scrolled near. @param {number} count @param {() => HTMLElement[]} make @param {{left: number}} budget */
function chunk(count, make, budget) {
  const node = el("div", { class: "chunk" });
  if (budget.left > 0) {
    budget.left -= count;
    node.append(...make());
    return node;
  }
  builder ??= new IntersectionObserver((seen) => seen.filter((e) => e.isIntersecting).forEach((e) => build(e.target)), {
    rootMargin: "2000px 0px",
  });
  unbuilt.set(node, make);
  node.style.minHeight = `${count * 1.35 * 0.8}rem`;
  builder.observe(node);
  return node;
}

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

/** A fold over unchanged lines, opened by its button. @param {DiffLine[]} lines @param {string} file */
function foldRow(lines, file) {
  const fold = el("div", { class: "fold" });
  fold.append(
    el("button", {
      type: "button",
      text: `⋯ ${lines.length} ${tr("window-review-unchanged")}`,
      onclick: () => fold.replaceWith(...lines.map((l) => lineRow(l, file))),
    }),
  );
  return fold;
}

/**
 * A hunk's lines in chunks, long unchanged runs folded behind a button.
 * @param {DiffHunk} h @param {string} file @param {{left: number}} budget lines still to build at once
 */
function hunkNode(h, file, budget) {
  const node = el("div", { class: "hunk" }, el("div", { class: "hunk-header", text: h.header }));
  /** @type {Array<DiffLine | DiffLine[]>} what each row shows: a line, or a fold of lines */
  const rows = [];
  let i = 0;
  while (i < h.lines.length) {
    let j = i;
    while (j < h.lines.length && h.lines[j].kind === " ") j++;
    if (j - i > FOLD_OVER) {
      rows.push(...h.lines.slice(i, i + FOLD_KEEP), h.lines.slice(i + FOLD_KEEP, j - FOLD_KEEP));
      rows.push(...h.lines.slice(j - FOLD_KEEP, j));
      i = j;
    } else {
      rows.push(...h.lines.slice(i, Math.max(j, i + 1)));
      i = Math.max(j, i + 1);
    }
  }
  for (let c = 0; c < rows.length; c += CHUNK) {
    const part = rows.slice(c, c + CHUNK);
    node.append(
      chunk(part.length, () => part.map((r) => (Array.isArray(r) ? foldRow(r, file) : lineRow(r, file))), budget),
    );
  }
  return node;
}

/** @param {ChangedFile} f @param {{left: number}} budget */
function fileNode(f, budget) {
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
  for (const h of f.hunks) section.append(hunkNode(h, f.path, budget));
  return section;
}

/**
 * The review of an ask's files.
 * @param {ChangedFile[]} files
 */
export function reviewNode(files) {
  const budget = { left: EAGER };
  const review = el(
    "div",
    { class: "review" },
    el("p", { class: "review-hint", text: tr("window-review-hint") }),
    el(
      "ul",
      { class: "review-files" },
      ...files.map((f) => el("li", {}, el("span", { class: "path", text: f.path }), " ", counts(f))),
    ),
    ...files.map((f) => fileNode(f, budget)),
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
