// @ts-check
// The bridge to Rust: the window's commands (src-tauri/src/commands.rs) and the events
// the app sends it, each event named once here (EVENTS), as the commands are in
// src-tauri/src/command_names.rs. The window reaches Rust through nothing else.

export const { invoke } = window.__TAURI__.core;
const { listen } = window.__TAURI__.event;

/** Every event the app sends the window (src-tauri/src/events.rs names them too). */
export const EVENTS = Object.freeze({
  /** The asks the window holds changed: read the list again. */
  questionsChanged: "questions-changed",
  /** The history cannot be kept or written now (a `HistoryProblem`), or can again (null). */
  historyProblem: "history-problem",
  /** The person picked another language (its tag). */
  languageChanged: "language-changed",
  /** A notification was clicked: show this ask (its id). */
  focusQuestion: "focus-question",
  /** Do not disturb was turned on or off (a boolean). */
  doNotDisturb: "do-not-disturb",
});

/**
 * Listens for `event`; resolves once the app knows the window listens, so that state
 * read after it misses no change.
 * @param {string} event one of EVENTS
 * @param {(payload: any) => void} handler
 * @returns {Promise<unknown>}
 */
export function on(event, handler) {
  return listen(event, (/** @type {{payload: any}} */ e) => handler(e.payload));
}
