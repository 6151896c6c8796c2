// @ts-check
// The bridge to Rust: the window's commands (src-tauri/src/commands.rs), one typed
// function each, and the events the app sends it, each named once here (EVENTS). The
// commands are the list in src-tauri/src/command_names.rs, one call each below (a test
// of the app holds the two together). The window reaches Rust through nothing else.

const { invoke } = window.__TAURI__.core;
const { listen } = window.__TAURI__.event;

/** Every command of the window; each rejects with a `UiError`. */
export const commands = Object.freeze({
  /** @returns {Promise<ListView>} */
  listQuestions: () => invoke("list_questions"),
  /**
   * Answers an ask; with `remember`, the answer becomes a rule for the next same question.
   * @param {string} ask @param {Answer} answer @param {RememberFor | null} remember
   * @returns {Promise<void>}
   */
  answerQuestion: (ask, answer, remember) => invoke("answer_question", { ask, answer, remember }),
  /**
   * Allows or denies exactly the marked permissions, all or none; the number answered.
   * @param {string[]} asks @param {boolean} allow @returns {Promise<number>}
   */
  answerMarked: (asks, allow) => invoke("answer_marked", { asks, allow }),
  /** @param {string} ask @param {ReviewComment[]} comments @returns {Promise<void>} */
  requestChanges: (ask, comments) => invoke("request_changes", { ask, comments }),
  /**
   * @param {string} ask @param {string} choice an approval's label, or Revise
   * @param {PlanAnnotation[]} annotations @param {string} general
   * @returns {Promise<void>}
   */
  reviewPlan: (ask, choice, annotations, general) => invoke("review_plan", { ask, choice, annotations, general }),
  /** Keeps a pasted picture; its path. @param {Uint8Array} bytes @returns {Promise<string>} */
  savePicture: (bytes) => invoke("save_picture", bytes),
  /**
   * The paths of a file pick that best fit `query`, hidden names too when `hidden`.
   * @param {string} ask @param {string} question @param {string} query @param {boolean} hidden
   * @returns {Promise<Found>}
   */
  findPaths: (ask, question, query, hidden) => invoke("find_paths", { ask, question, query, hidden }),
  /** A look inside one path of a file pick. @param {string} ask @param {string} question @param {string} path @returns {Promise<Preview>} */
  previewPath: (ask, question, path) => invoke("preview_path", { ask, question, path }),
  /** @param {string} ask @returns {Promise<void>} */
  dismissQuestion: (ask) => invoke("dismiss_question", { ask }),
  /** @param {string} ask @param {Draft} draft @returns {Promise<void>} */
  saveDraft: (ask, draft) => invoke("save_draft", { ask, draft }),
  /** @returns {Promise<Status>} */
  status: () => invoke("status"),
  /** @returns {Promise<void>} */
  hideWindow: () => invoke("hide_window"),
  /** @returns {Promise<void>} */
  renewPage: () => invoke("renew_page"),
  /** @returns {Promise<UiText>} */
  uiText: () => invoke("ui_text"),
  /** @param {string} lang @returns {Promise<void>} */
  setLanguage: (lang) => invoke("set_language", { lang }),
  /** @returns {Promise<DeadlineView>} */
  deadlineView: () => invoke("deadline_view"),
  /** Keeps a choice of the picker: `off` or a duration. @param {string} choice @returns {Promise<DeadlineView>} */
  setDeadline: (choice) => invoke("set_deadline", { choice }),
  /** @param {string} search @param {number | null} before @returns {Promise<HistoryPage>} */
  historyPage: (search, before) => invoke("history_page", { search, before }),
  /** The policy's rules and the remembered answers. @returns {Promise<RulesView>} */
  listRules: () => invoke("list_rules"),
  /** A remembered answer by its number, a rule by its stable id (`allow:3fa9c2e1`). @param {RuleId} id @returns {Promise<void>} */
  removeRule: (id) => invoke("remove_rule", { id }),
  /** Your rule `id` (`allow:2`) in place, as `entry`'s TOML says. @param {RuleId} id @param {string} entry @returns {Promise<void>} */
  editRule: (id, entry) => invoke("edit_rule", { id, entry }),
  /** A project's `.userq/rules.toml` trusted as it is now. @param {string} file @returns {Promise<void>} */
  trustProject: (file) => invoke("trust_project", { file }),
  /** @returns {Promise<MachinesView>} */
  relayStatus: () => invoke("relay_status"),
  /** @returns {Promise<InviteView>} */
  relayInvite: () => invoke("relay_invite"),
  /** @returns {Promise<MatrixView>} */
  matrixStatus: () => invoke("matrix_status"),
  /** @returns {Promise<AgentsView>} */
  listAgents: () => invoke("list_agents"),
  /** What connecting (or not) would change. @param {string} name @param {boolean} connect @returns {Promise<ChangesView>} */
  agentChanges: (name, connect) => invoke("agent_changes", { name, connect }),
  /** @param {string} name @param {boolean} connect @returns {Promise<ChangesView>} */
  connectAgent: (name, connect) => invoke("connect_agent", { name, connect }),
});

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
