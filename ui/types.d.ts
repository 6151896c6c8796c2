// The shapes the window receives from Rust (crates/window/src/inbox.rs, list.rs) and the
// Tauri globals it uses. Kept by hand beside the Rust types they mirror; tsc checks
// app.js against them.

/** One option of a question. */
interface QuestionOption {
  label: string;
  description?: string | null;
}

/** A presentation intent, passed through verbatim. */
interface Intent {
  kind: string;
  approve: string;
  [field: string]: unknown;
}

/** One question as the window renders it (`QuestionView`). */
interface QuestionView {
  id: string;
  question: string;
  header: string | null;
  /** Sanitized HTML, rendered in Rust. */
  detailHtml: string | null;
  options: QuestionOption[];
  /** The options as the person sees them, one for one with `options`. */
  shownOptions: QuestionOption[];
  multiSelect: boolean;
  intent: Intent | null;
  planReview: boolean;
  permission: boolean;
}

interface AgentView {
  id: string;
  client: string | null;
  delegationDepth: number;
}

interface AskContext {
  project?: string;
  session?: string;
  source?: string;
}

/** How the ask is presented, decided once in Rust. */
type Presentation = "form" | "planReview" | "permission";

/** What the person has typed so far into one question. */
interface QuestionDraft {
  selected: string[];
  custom: string;
  skip: boolean;
}

/** A draft: question id -> what was typed. */
type Draft = Record<string, QuestionDraft>;

/** One held ask (`AskView`). */
interface AskView {
  ask: string;
  agent: AgentView | null;
  client: string | null;
  context: AskContext | null;
  since: string;
  presentation: Presentation;
  questions: QuestionView[];
  draft: Draft | null;
  canRemember: boolean;
  revision: Revision | null;
}

/** A plan review's changes since the last version (`Revision`). */
interface Revision {
  diffHtml: string;
  feedback: string | null;
  askedAt: string;
}

/** An ask in the list, with its group and worded labels (`ListedAsk`). */
interface ListedAsk extends AskView {
  group: string;
  sessionLabel: string | null;
  rememberClient: string | null;
}

/** A group of the list: one agent session, or one agent (`GroupView`). */
interface GroupView {
  key: string;
  name: string;
  client: string;
  detail: string;
  count: number;
  countLabel: string;
}

/** One ask of the History view (`HistoryItem`). */
interface HistoryItem {
  ask: number;
  question: string;
  outcome: string;
  answered: boolean;
  agent: string | null;
  client: string | null;
  askedAt: string;
  waited: string;
  answeredBy: string | null;
  byLabel: string | null;
  planHtml: string | null;
}

interface HistoryPage {
  items: HistoryItem[];
  next: number | null;
}

/** A remembered answer (`RuleView`). */
interface RuleView {
  id: number;
  question: string;
  answer: string;
  client: string | null;
  createdAt: string;
  uses: number;
  lastUsedAt: string | null;
  clientLabel: string;
  usesLabel: string;
}

/** What `list_questions` returns (`ListView`). */
interface ListView {
  asks: ListedAsk[];
  groups: GroupView[];
  waiting: string;
  title: string;
}

interface Language {
  tag: string;
  name: string;
}

/** The window's words (`ui_text`): static labels by message id. */
interface UiText {
  lang: string;
  languages: Language[];
  messages: Record<string, string>;
}

/** A command's error: a code to branch on, a message to show. */
interface UiError {
  code: string;
  message: string;
}

interface Status {
  doNotDisturb: boolean;
  socket: string;
  focus: string | null;
  /** Why the history is not written, if it is not. */
  historyProblem: HistoryProblem | null;
  /** How many questions the page builds before it loads itself again, once nothing waits. */
  renewAfter: number;
}

interface Window {
  __TAURI__: {
    core: { invoke<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T> };
    event: { listen<T = unknown>(event: string, handler: (e: { payload: T }) => void): Promise<() => void> };
  };
}

/** Why the history is not written: off since the start, or paused for now. */
interface HistoryProblem {
  paused: boolean;
  why: string;
}
