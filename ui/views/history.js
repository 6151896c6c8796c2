// @ts-check
// The History view: every ask kept, newest first, searched as the person types, a page
// at a time; a reviewed plan opens again.
//
// State it owns: `next`, where the next page starts (null on the last).

import { commands } from "../bridge.js";
import { byId, el } from "../dom.js";
import { tr } from "../text.js";

/** @type {number | null} */
let next = null;

/** @param {boolean} more */
async function loadHistory(more) {
  const list = byId("history-list");
  const search = /** @type {HTMLInputElement} */ (byId("history-search")).value;
  const page = await commands.historyPage(search, more ? next : null);
  if (!more) list.replaceChildren();
  for (const item of page.items) list.append(historyNode(item));
  next = page.next;
  byId("history-more").hidden = page.next == null;
  byId("history-empty").hidden = list.children.length > 0;
}

/** @param {HistoryItem} item */
function historyNode(item) {
  const node = el(
    "li",
    { class: item.answered ? "entry answered" : "entry ended" },
    el("p", { class: "text", text: item.question }),
    el("p", { class: "outcome", text: item.outcome }),
    el(
      "p",
      { class: "origin" },
      el("span", { class: "source", text: item.client || "" }),
      el("span", { class: "agent-id", text: item.agent || "" }),
      el("time", { text: new Date(item.askedAt).toLocaleString(document.documentElement.lang), title: item.askedAt }),
      el("span", { class: "waited", text: item.waited }),
      el("span", { class: "by", text: item.byLabel || "" }),
    ),
  );
  if (item.planHtml) {
    const plan = el("div", { class: "detail plan" });
    plan.innerHTML = item.planHtml; // sanitized by ammonia in Rust
    node.append(el("details", {}, el("summary", { text: tr("window-history-plan") }), plan));
  }
  return node;
}

let searchTimer = 0;
byId("history-search").oninput = () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => loadHistory(false), 150);
};
byId("history-more").onclick = () => loadHistory(true);

/** The view, for the registry. */
export const view = { name: "history", show: () => loadHistory(false) };
