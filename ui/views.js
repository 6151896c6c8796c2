// @ts-check
// The window's views behind its tabs. A view is one module exporting
// `view = {name, show}` and one line in VIEWS; `show` runs each time its tab is picked.
// The questions view is the inbox, always live, so it has nothing to load.

import { view as history } from "./views/history.js";
import { view as rules } from "./views/rules.js";
import { view as machines } from "./views/machines.js";
import { view as agents } from "./views/agents.js";

/** @typedef {{name: string, show: () => unknown}} View */

/** @type {View[]} */
const VIEWS = [{ name: "questions", show: () => {} }, history, rules, machines, agents];

/** @param {string} name */
export function showView(name) {
  for (const tab of document.querySelectorAll("nav.tabs button"))
    tab.setAttribute("aria-selected", String(/** @type {HTMLElement} */ (tab).dataset.view === name));
  for (const view of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".view")))
    view.hidden = view.id !== name;
  document.querySelector(".shortcuts")?.toggleAttribute("hidden", name !== "questions");
  const view = VIEWS.find((v) => v.name === name);
  if (view) view.show();
}

for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("nav.tabs button")))
  tab.onclick = () => showView(tab.dataset.view || "questions");

// The empty inbox offers to connect an agent: the Agents view.
const connect = document.getElementById("empty-connect");
if (connect) connect.onclick = () => showView("agents");
