// @ts-check
// The question window: a view of the asks Rust holds. It reads them with commands,
// hears of changes through events, and answers with commands (bridge.js). This module
// starts it: the words, the inbox (inbox.js, its forms in form.js), the views behind
// the tabs (views.js), and the notices the app raises.

import { EVENTS, commands, on } from "./bridge.js";
import { focusAsk, refresh, relabel, renewAfter } from "./inbox.js";
import { byId } from "./dom.js";
import { showDeadline } from "./deadline.js";
import { loadText, tr } from "./text.js";
import "./views.js";
import "./pictures.js";

// A history that cannot be kept, or cannot be written for now (a full disk), never
// stops a question; the person is told why, for as long as it lasts.
/** @param {HistoryProblem | null} why */
function showHistoryProblem(why) {
  const problem = byId("history-problem");
  problem.hidden = !why;
  const title = /** @type {HTMLElement} */ (problem.querySelector("strong"));
  title.dataset.tr = why && why.paused ? "window-history-paused" : "window-history-off";
  title.textContent = tr(title.dataset.tr);
  /** @type {HTMLElement} */ (problem.querySelector(".why")).textContent = why ? why.why : "";
}

byId("language").addEventListener("change", (e) => {
  const lang = /** @type {HTMLSelectElement} */ (e.target).value;
  commands.setLanguage(lang).catch(() => loadText());
});

// The words come first: nothing the events bring is built or labelled before they are
// here, even what arrives while the window starts.
const worded = loadText();
/** @template T @param {(payload: T) => unknown} f @returns {(payload: T) => Promise<unknown>} */
const inWords = (f) => (payload) => worded.then(() => f(payload));
const listening = Promise.all([
  on(
    EVENTS.questionsChanged,
    inWords(() => refresh()),
  ),
  on(
    EVENTS.historyProblem,
    inWords((why) => showHistoryProblem(/** @type {HistoryProblem | null} */ (why))),
  ),
  on(
    EVENTS.languageChanged,
    inWords(() => Promise.all([relabel(), showDeadline()])),
  ),
  on(
    EVENTS.focusQuestion,
    inWords((ask) => refresh().then(() => focusAsk(ask))),
  ),
  on(EVENTS.doNotDisturb, (on) => {
    byId("dnd").hidden = !on;
  }),
]);

(async () => {
  // What is read below is read after the app knows the window listens: a change made
  // in between (Do not disturb from the tray) arrives as an event, never falls between.
  await listening;
  await worded;
  await refresh();
  await showDeadline();
  /** @type {Status} */
  const status = await commands.status();
  byId("dnd").hidden = !status.doNotDisturb;
  showHistoryProblem(status.historyProblem);
  renewAfter(status.renewAfter);
  if (status.focus) focusAsk(status.focus);
})();
