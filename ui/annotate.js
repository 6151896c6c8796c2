// @ts-check
// A plan's annotations: select text in the rendered plan, then Comment, Remove or
// Replace. Each annotation knows the markdown lines it points at (the plan comes from
// Rust with every piece of text in a `span[data-lines]`), is highlighted in the plan,
// and sits in the margin in document order, editable or discarded until the review is
// sent; annotations() reads them back for `review_plan`, which words them for the
// agent. An earlier version's annotations come with a revised plan: showEarlier()
// lists each, addressed or open, and marks the lines the open ones still point at.
//
// State it owns: each plan's selection waiting for a button (`waiting`), and the
// counter naming highlights (`next`).

import { el } from "./dom.js";
import { tr } from "./text.js";

/** @type {WeakMap<HTMLElement, Range>} plan -> the selection its toolbar acts on */
const waiting = new WeakMap();
let next = 0;

/** The spans of `plan` a range touches. @param {HTMLElement} plan @param {Range} range */
function touched(plan, range) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (plan.querySelectorAll("span[data-lines]"))].filter((s) =>
    range.intersectsNode(s),
  );
}

/** @param {HTMLElement} span @returns {[number, number]} */
function linesOf(span) {
  const [a, b] = (span.dataset.lines || "0-0").split("-").map(Number);
  return [a, b];
}

/**
 * The source line of a boundary inside a span: its first line, plus the line breaks
 * before the offset (a code block's text spans lines).
 * @param {HTMLElement} span @param {Node} node @param {number} offset @param {number} fallback
 */
function lineAt(span, node, offset, fallback) {
  if (node.nodeType !== Node.TEXT_NODE || !span.contains(node)) return fallback;
  let before = 0;
  const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = /** @type {Text} */ (walker.currentNode);
    if (t === node) {
      before += (t.data.slice(0, offset).match(/\n/g) || []).length;
      break;
    }
    before += (t.data.match(/\n/g) || []).length;
  }
  return Math.min(linesOf(span)[0] + before, linesOf(span)[1]);
}

/** The lines a range points at. @param {HTMLElement} plan @param {Range} range @returns {[number, number] | null} */
function rangeLines(plan, range) {
  const spans = touched(plan, range);
  if (!spans.length) return null;
  const first = spans[0];
  const last = spans[spans.length - 1];
  const from = lineAt(first, range.startContainer, range.startOffset, linesOf(first)[0]);
  // A selection ending at the very start of a line is about the line before it.
  const endOffset = Math.max(0, range.endOffset - 1);
  const to = lineAt(last, range.endContainer, endOffset, linesOf(last)[1]);
  return [from, Math.max(from, to)];
}

/** Wraps the text a range covers in marks named `id`. @param {Range} range @param {string} id */
function highlight(range, id) {
  const { startContainer, startOffset, endContainer, endOffset } = range;
  const root =
    range.commonAncestorContainer.nodeType === Node.TEXT_NODE
      ? /** @type {Node} */ (range.commonAncestorContainer.parentNode)
      : range.commonAncestorContainer;
  /** @type {Text[]} */
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = /** @type {Text} */ (walker.currentNode);
    if (range.intersectsNode(t) && t.data.trim()) texts.push(t);
  }
  for (let t of texts) {
    if (t === endContainer && endOffset < t.data.length) t.splitText(endOffset);
    if (t === startContainer && startOffset > 0) t = t.splitText(startOffset);
    const mark = el("mark", { class: "annotated" });
    mark.dataset.note = id;
    t.replaceWith(mark);
    mark.append(t);
  }
}

/** Takes the marks of `id` out of the plan again. @param {HTMLElement} plan @param {string} id */
function unhighlight(plan, id) {
  for (const mark of /** @type {NodeListOf<HTMLElement>} */ (plan.querySelectorAll(`mark[data-note="${id}"]`))) {
    const parent = mark.parentNode;
    mark.replaceWith(...mark.childNodes);
    parent?.normalize();
  }
}

/** "3" or "3–5". @param {number} from @param {number} to */
const where = (from, to) => (from === to ? `${from}` : `${from}–${to}`);

/** @type {Record<AnnotationKind, {label: string, placeholder: string}>} */
const KINDS = {
  comment: { label: "window-annotate-comment", placeholder: "window-annotate-comment-placeholder" },
  remove: { label: "window-annotate-remove", placeholder: "window-annotate-remove-placeholder" },
  replace: { label: "window-annotate-replace", placeholder: "window-annotate-replace-placeholder" },
};

/**
 * An annotation's card in the margin, in document order.
 * @param {HTMLElement} plan @param {HTMLElement} margin @param {PlanAnnotation} a @param {string} id
 */
function card(plan, margin, a, id) {
  const text = el("textarea", {
    class: "annotation-text",
    "aria-label": tr(KINDS[a.kind].placeholder),
    placeholder: tr(KINDS[a.kind].placeholder),
  });
  text.value = a.text;
  const node = el(
    "div",
    { class: `annotation ${a.kind}` },
    el(
      "header",
      {},
      el("span", { class: "where", text: where(a.lines[0], a.lines[1]) }),
      el("span", { class: "kind", text: tr(KINDS[a.kind].label) }),
      el("button", {
        type: "button",
        class: "discard",
        text: "×",
        title: tr("window-annotate-discard"),
        "aria-label": tr("window-annotate-discard"),
        onclick: () => {
          unhighlight(plan, id);
          node.remove();
        },
      }),
    ),
    el("blockquote", { class: "quote", text: a.quote }),
    text,
  );
  Object.assign(node.dataset, {
    note: id,
    from: String(a.lines[0]),
    to: String(a.lines[1]),
    kind: a.kind,
    quote: a.quote,
  });
  const after = [.../** @type {NodeListOf<HTMLElement>} */ (margin.querySelectorAll(".annotation"))].find(
    (c) =>
      Number(c.dataset.from) > a.lines[0] ||
      (Number(c.dataset.from) === a.lines[0] && Number(c.dataset.to) > a.lines[1]),
  );
  margin.insertBefore(node, after || null);
  return node;
}

/** @param {HTMLElement} plan @param {HTMLElement} margin @param {AnnotationKind} kind */
function annotate(plan, margin, kind) {
  const range = waiting.get(plan);
  waiting.delete(plan);
  hideToolbar(plan);
  if (!range) return;
  const lines = rangeLines(plan, range);
  if (!lines) return;
  const quote = range.toString().trim();
  const id = `n${++next}`;
  const node = card(plan, margin, { lines, quote, kind, text: kind === "replace" ? quote : "" }, id);
  highlight(range, id);
  document.getSelection()?.removeAllRanges();
  /** @type {HTMLElement} */ (node.querySelector("textarea")).focus();
  node.closest("form")?.dispatchEvent(new Event("input", { bubbles: true }));
}

/** @param {HTMLElement} plan */
function hideToolbar(plan) {
  const bar = /** @type {HTMLElement | null} */ (plan.parentElement?.querySelector(".annotate-bar"));
  if (bar) bar.hidden = true;
}

/** The selection inside `plan`, if any. @param {HTMLElement} plan */
function selectionIn(plan) {
  const s = document.getSelection();
  if (!s || s.isCollapsed || !s.rangeCount) return null;
  const range = s.getRangeAt(0);
  return plan.contains(range.commonAncestorContainer) && range.toString().trim() ? range : null;
}

/**
 * A plan that can be annotated: the rendered plan and its margin, with the toolbar
 * that shows over a selection.
 * @param {HTMLElement} plan the rendered plan (its text in `span[data-lines]`)
 */
export function annotatable(plan) {
  const margin = el("aside", { class: "annotations", "aria-label": tr("window-annotations") });
  const bar = el(
    "div",
    { class: "annotate-bar", role: "toolbar" },
    .../** @type {AnnotationKind[]} */ (["comment", "remove", "replace"]).map((kind) =>
      el("button", {
        type: "button",
        class: `annotate-${kind}`,
        text: tr(KINDS[kind].label),
        // Pressing a button must not take the selection away first.
        onmousedown: (/** @type {Event} */ e) => e.preventDefault(),
        onclick: () => annotate(plan, margin, kind),
      }),
    ),
  );
  bar.hidden = true;
  const offer = () => {
    const range = selectionIn(plan);
    if (!range) {
      bar.hidden = true;
      return;
    }
    waiting.set(plan, range.cloneRange());
    const box = range.getBoundingClientRect();
    const host = /** @type {HTMLElement} */ (plan.parentElement).getBoundingClientRect();
    bar.style.top = `${box.bottom - host.top + 4}px`;
    bar.style.left = `${Math.max(0, box.left - host.left)}px`;
    bar.hidden = false;
  };
  // Handlers as properties, which the element pool clears (dom.js), never listeners.
  plan.onmouseup = offer;
  plan.onkeyup = offer;
  plan.onclick = (e) => {
    const mark = /** @type {HTMLElement} */ (e.target).closest("mark.annotated");
    const id = mark ? /** @type {HTMLElement} */ (mark).dataset.note : "";
    const note = id && margin.querySelector(`.annotation[data-note="${id}"] textarea`);
    if (note) /** @type {HTMLElement} */ (note).focus();
  };
  return el(
    "div",
    { class: "plan-review" },
    el("p", { class: "annotate-hint", text: tr("window-annotate-hint") }),
    el("div", { class: "plan-body" }, plan, margin, bar),
  );
}

/**
 * The annotations written on a form's plan, for `review_plan`.
 * @param {HTMLElement} form
 * @returns {PlanAnnotation[]}
 */
export function annotations(form) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".annotations .annotation"))].map((c) => ({
    lines: [Number(c.dataset.from), Number(c.dataset.to)],
    quote: c.dataset.quote || "",
    kind: /** @type {AnnotationKind} */ (c.dataset.kind),
    text: /** @type {HTMLTextAreaElement} */ (c.querySelector("textarea")).value,
  }));
}

/**
 * The annotations made on the last version, addressed or open; the lines the open ones
 * still point at are marked in the plan.
 * @param {HTMLElement} plan @param {AnnotationStatus[]} earlier
 */
export function showEarlier(plan, earlier) {
  if (!earlier.length) return null;
  for (const s of earlier) {
    if (!s.now) continue;
    const [from, to] = s.now;
    for (const span of /** @type {NodeListOf<HTMLElement>} */ (plan.querySelectorAll("span[data-lines]"))) {
      const [a, b] = linesOf(span);
      if (a <= to && b >= from) span.classList.add("still-open");
    }
  }
  return el(
    "ul",
    { class: "earlier-annotations" },
    ...earlier.map((s) =>
      el(
        "li",
        { class: s.addressed ? "addressed" : "open" },
        el("span", {
          class: "status",
          text: tr(s.addressed ? "window-annotation-addressed" : "window-annotation-open"),
        }),
        el("span", { class: "where", text: where(...(s.now || s.annotation.lines)) }),
        el("q", { class: "quote", text: s.annotation.quote }),
        el("span", { class: "kind", text: tr(KINDS[s.annotation.kind].label) }),
        s.annotation.text ? el("span", { class: "note-text", text: s.annotation.text }) : null,
      ),
    ),
  );
}
