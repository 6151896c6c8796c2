// @ts-check
// Several permission requests answered at once. The person marks them in the side
// list (Ctrl or ⌘ and a click, Shift and a click for a range, x for the one shown),
// then allows or denies exactly those, after seeing the list of what will be sent.
// Only permissions can be marked: a plan, a code review or a question is answered in
// its own form. A batch never remembers anything, and there is no "all".
//
// State it owns: the marked asks, each markable ask's line, the last one marked.

import { commands } from "./bridge.js";
import { byId, el } from "./dom.js";
import { tr } from "./text.js";

const bar = byId("batch");
const side = byId("waiting");

/** @type {Set<string>} the marked asks */
const marked = new Set();
/** @type {Map<string, string>} each markable ask -> its line in the list shown before sending */
const lines = new Map();
/** @type {string[]} the side list's order */
let order = [];
/** @type {string | null} where a Shift range starts */
let anchor = null;

/** The asks now waiting, in the side list's order: marks of those gone are dropped. @param {ListedAsk[]} asks @param {string[]} listed */
export function update(asks, listed) {
  lines.clear();
  for (const view of asks) if (view.presentation === "permission") lines.set(view.ask, view.summary);
  order = listed;
  for (const ask of [...marked]) if (!lines.has(ask)) marked.delete(ask);
  show();
}

/** Marks `ask`, or unmarks it; with `range`, every permission from the last one marked to it. @param {string} ask @param {boolean} range */
export function toggle(ask, range) {
  if (!lines.has(ask)) return;
  const from = anchor ? order.indexOf(anchor) : -1;
  if (range && from >= 0) {
    const to = order.indexOf(ask);
    for (const a of order.slice(Math.min(from, to), Math.max(from, to) + 1)) if (lines.has(a)) marked.add(a);
  } else if (marked.has(ask)) marked.delete(ask);
  else marked.add(ask);
  anchor = ask;
  show();
}

/** The marks on the side list, and the bar's buttons while any is marked. */
function show() {
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (side.querySelectorAll("button.item"))) {
    const on = marked.has(item.dataset.ask || "");
    item.classList.toggle("marked", on);
    item.setAttribute("aria-pressed", String(on));
  }
  bar.hidden = marked.size === 0;
  bar.replaceChildren(
    el("button", {
      type: "button",
      class: "primary allow-marked",
      text: tr("window-batch-allow"),
      onclick: () => confirm(true),
    }),
    el("button", {
      type: "button",
      class: "deny deny-marked",
      text: tr("window-batch-deny"),
      onclick: () => confirm(false),
    }),
    el("button", {
      type: "button",
      class: "option-button clear-marks",
      text: tr("window-batch-clear"),
      onclick: clear,
    }),
  );
}

function clear() {
  marked.clear();
  anchor = null;
  show();
}

/** What will be sent, one line each, before anything is. @param {boolean} allow */
function confirm(allow) {
  const asks = order.filter((a) => marked.has(a));
  const error = el("p", { class: "error", role: "alert" });
  const send = async () => {
    try {
      await commands.answerMarked(asks, allow);
      clear();
    } catch (e) {
      error.textContent = /** @type {UiError} */ (e).message || String(e);
    }
  };
  bar.replaceChildren(
    el("p", { class: "confirm", text: tr(allow ? "window-batch-allow-these" : "window-batch-deny-these") }),
    el("ul", { class: "batch-list" }, ...asks.map((a) => el("li", { text: lines.get(a) || a }))),
    el("button", {
      type: "button",
      class: allow ? "primary send-batch" : "deny send-batch",
      text: tr(allow ? "window-batch-allow-them" : "window-batch-deny-them"),
      onclick: send,
    }),
    el("button", { type: "button", class: "back", text: tr("window-batch-back"), onclick: show }),
    error,
  );
  /** @type {HTMLElement} */ (bar.querySelector("button.send-batch")).focus();
}
