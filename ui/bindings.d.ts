// Generated from the Rust types by src-tauri/window/src/bindings.rs (ts-rs): do not edit.
// `make bindings` writes it again; the test fails when it is stale.

type QuestionOption = { label: string, description?: string, };

type Intent = { kind: string, approve: string, };

type Context = { 
/**
 * The folder the agent works in.
 */
project?: string, session?: string, source?: string, 
/**
 * The machine the agent runs on, set by the door its ask came through (an SSH
 * forward); absent for this machine.
 */
machine?: string, 
/**
 * The project `project` is in: the nearest folder above it holding `.git`.
 */
root?: string, 
/**
 * The branch checked out in `root` (a short commit when none is).
 */
branch?: string, 
/**
 * The request's own words: what the agent says the call is for (Claude Code's
 * Bash `description`).
 */
description?: string, 
/**
 * The agent's last message before it asked, from its transcript.
 */
lastMessage?: string, };

type AgentView = { id: string, client: string | null, delegationDepth: number, };

type QuestionKind = "generic" | "permission" | "plan-review" | "code-review" | "elicitation" | "file-pick";

type Picked = "files" | "folders";

type FilePick = { of: Picked, 
/**
 * An absolute folder.
 */
root: string, globs?: Array<string>, };

type QuestionView = { id: string, question: string, header: string | null, 
/**
 * The detail as sanitized HTML.
 */
detailHtml: string | null, options: Array<QuestionOption>, 
/**
 * The options as the person sees them, one for one: the product's own labels
 * (Allow, Deny, Approve, Revise) in the person's language, an agent's as they
 * came. What is sent back is always from `options`.
 */
shownOptions: Array<QuestionOption>, multiSelect: boolean, 
/**
 * The option that approves, for a question with an intent.
 */
approve: string | null, 
/**
 * The kind the window presents it as ([`presented`]).
 */
kind: QuestionKind, 
/**
 * What a file pick picks, under which root.
 */
pick: FilePick | null, };

type FoundPath = { path: string, marks: Array<number>, };

type Found = { paths: Array<FoundPath>, 
/**
 * How many paths the pick offers in all.
 */
total: number, 
/**
 * The listing stopped at its bound (`user_questions::pick::MAX_PATHS`).
 */
cut: boolean, 
/**
 * How many are shown of how many, in the person's language.
 */
count: string, };

type Preview = { "type": "text", lines: Array<string>, more: boolean, } | { "type": "binary", bytes: bigint, said: string, } | { "type": "folder", names: Array<string>, more: boolean, };

type Revision = { 
/**
 * The diff of the last version against this one, rendered (lines marked).
 */
diffHtml: string, 
/**
 * What the person said of the last version: the typed feedback, else the label.
 */
feedback: string | null, askedAt: string, 
/**
 * The annotations made on the last version, each addressed or still open.
 */
annotations: Array<AnnotationStatus>, };

type FileChange = "added" | "deleted" | "modified" | "renamed";

type DiffLine = { 
/**
 * `+`, `-` or ` `.
 */
kind: string, 
/**
 * Its number in the old file (absent for an added line).
 */
old: number | null, 
/**
 * Its number in the new file (absent for a removed line).
 */
new: number | null, text: string, };

type DiffHunk = { 
/**
 * The `@@ … @@` line, with the section it is in.
 */
header: string, lines: Array<DiffLine>, };

type ChangedFile = { 
/**
 * The path after the change (before it, for a deleted file).
 */
path: string, 
/**
 * The path before a rename.
 */
oldPath: string | null, status: FileChange, binary: boolean, added: number, removed: number, hunks: Array<DiffHunk>, };

type ReviewComment = { 
/**
 * The file it is about; absent for the whole change.
 */
file: string | null, 
/**
 * The lines it is about, first and last, on the new side (`old` for lines only
 * the old file has); absent for the whole file.
 */
lines: [number, number] | null, old: boolean, text: string, };

type AnnotationKind = "comment" | "remove" | "replace";

type PlanAnnotation = { lines: [number, number], quote: string, kind: AnnotationKind, text: string, };

type AnnotationStatus = { annotation: PlanAnnotation, 
/**
 * Its lines changed or went: the agent acted on it.
 */
addressed: boolean, 
/**
 * Where its lines are in the new version, when they are all still there.
 */
now: [number, number] | null, };

type AskView = { ask: string, agent: AgentView | null, 
/**
 * The client that asked ([`Ask::client`]): what "remember for this client" means.
 */
client: string | null, 
/**
 * Where the ask comes from: project, session, kind of agent.
 */
context: Context | null, since: string, presentation: QuestionKind, questions: Array<QuestionView>, draft: Draft | null, 
/**
 * The answer can be remembered (one single-select question, not a plan review).
 */
canRemember: boolean, 
/**
 * A plan review's changes since the last version of the same session's plan.
 */
revision: Revision | null, 
/**
 * A code review's files, read from its diff.
 */
review: Array<ChangedFile> | null, };

type ListedAsk = { 
/**
 * The key of its group in [`ListView::groups`].
 */
group: string, 
/**
 * "session 1a2b3c4d", when the ask names its session.
 */
sessionLabel: string | null, 
/**
 * "for Claude Code": whom a remembered answer would be for, when the asking
 * client is named.
 */
rememberClient: string | null, 
/**
 * The ways to remember a permission's Allow as rules, worded.
 */
rememberWays: Array<WayView>, 
/**
 * Which of them "Allow for this session" keeps, when the agent has a session.
 */
sessionWay: number | null, 
/**
 * What each part of a permission's action would do, and why it reached you.
 */
parts: Array<PartView>, 
/**
 * Where in its project the agent asks from.
 */
place: PlaceView, 
/**
 * What the agent says of its request, in its own words (inert).
 */
says: SaysView, 
/**
 * "Claude Code · shop · session 7a1c9e3f · Run this command? · make deploy": its
 * line in the list shown before a marked batch is sent.
 */
summary: string, 
/**
 * A team question's count: "You voted Approve. @hal approved. One more approval
 * needed."
 */
team: string | null, ask: string, agent: AgentView | null, 
/**
 * The client that asked ([`Ask::client`]): what "remember for this client" means.
 */
client: string | null, 
/**
 * Where the ask comes from: project, session, kind of agent.
 */
context: Context | null, since: string, presentation: QuestionKind, questions: Array<QuestionView>, draft: Draft | null, 
/**
 * The answer can be remembered (one single-select question, not a plan review).
 */
canRemember: boolean, 
/**
 * A plan review's changes since the last version of the same session's plan.
 */
revision: Revision | null, 
/**
 * A code review's files, read from its diff.
 */
review: Array<ChangedFile> | null, };

type GroupView = { key: string, 
/**
 * The project's folder name, or the agent's id ("No agent" for none).
 */
name: string, 
/**
 * The kind of agent or its client ("Claude Code", "claude-code").
 */
client: string, 
/**
 * "session 1a2b3c4d", "asked by a subagent", or nothing.
 */
detail: string, count: number, 
/**
 * "2 questions".
 */
countLabel: string, };

type ListView = { asks: Array<ListedAsk>, 
/**
 * In the order of each group's oldest ask.
 */
groups: Array<GroupView>, 
/**
 * "3 waiting".
 */
waiting: string, 
/**
 * The window's title: "User Questions (3)".
 */
title: string, };

type HistoryItem = { ask: number, question: string, 
/**
 * The answer's words, or how the ask ended ("NO_PROVIDER", "pending").
 */
outcome: string, answered: boolean, agent: string | null, client: string | null, askedAt: string, 
/**
 * "waited 2m 3s", or empty while pending.
 */
waited: string, answeredBy: string | null, 
/**
 * "by remembered answer 3", "by you, on beta".
 */
byLabel: string | null, 
/**
 * A plan review's plan, rendered and sanitized, to open again.
 */
planHtml: string | null, };

type HistoryPage = { items: Array<HistoryItem>, 
/**
 * Pass as `before` for the next page; `None` on the last.
 */
next: number | null, };

type Rule = { id: number, question: string, answer: string, client: string | null, detail?: string, createdAt: string, uses: number, lastUsedAt: string | null, };

type RuleView = { 
/**
 * The client it is for, or "every client".
 */
clientLabel: string, 
/**
 * "used 3 times".
 */
usesLabel: string, id: number, question: string, answer: string, client: string | null, detail?: string, createdAt: string, uses: number, lastUsedAt: string | null, };

type PolicyRuleView = { 
/**
 * `allow:3fa9c2e1`: its stable id ([`Entry::id`]), as it is removed by.
 */
id: string, 
/**
 * `allow`, `ask` or `deny`.
 */
verdict: string, 
/**
 * The verdict in the person's words.
 */
verdictLabel: string, 
/**
 * What it is about: `` `cargo test` ``, `read-only`, `edit src/**`.
 */
what: string, 
/**
 * What the agent reads when it denies.
 */
reason: string | null, 
/**
 * "everywhere", or its project, agent and session.
 */
scopeLabel: string, 
/**
 * "yours", "imported from codex", a project's file.
 */
originLabel: string, 
/**
 * "used 3 times", or "not used yet".
 */
usesLabel: string, 
/**
 * When it last decided (RFC 3339), shown in the person's time.
 */
lastUsedAt: string | null, 
/**
 * Whether it is in your own file, where the window can remove and edit it (a
 * project's file is the project's).
 */
removable: boolean, 
/**
 * The rule's entry as its file holds it (`command = "cargo test"`), to edit.
 */
entry: string, };

type RulesView = { policy: Array<PolicyRuleView>, remembered: Array<RuleView>, 
/**
 * Why the rules decide nothing now (a mistake in the file), in the person's words.
 */
problem: string | null, 
/**
 * The projects' own rules files above the folders agents asked from.
 */
projects: Array<ProjectView>, };

type ProjectView = { 
/**
 * The file, as `trust_project` names it.
 */
file: string, 
/**
 * Its rules apply.
 */
trusted: boolean, 
/**
 * "Trusted", or why its rules decide nothing.
 */
statusLabel: string, rules: Array<PolicyRuleView>, 
/**
 * What is wrong with the file, when its rules cannot be read.
 */
problem: string | null, };

type RuleId = number | string;

type MachineView = { name: string, thisMachine: boolean, 
/**
 * "this machine", "heard from 3 min ago", "not heard from yet".
 */
seenLabel: string, };

type MachinesView = { 
/**
 * Whether this machine is in a circle; when not, the rest is empty.
 */
paired: boolean, 
/**
 * "Connected to nats://…" or why not.
 */
connectionLabel: string, connected: boolean, machines: Array<MachineView>, };

type InviteView = { code: string, 
/**
 * The code as a QR code: an SVG drawing as a `data:` URL.
 */
qr: string, 
/**
 * What to do with it, and for how long.
 */
howLabel: string, };

type MemberView = { user: string, 
/**
 * "approver, joined", "invited".
 */
roleLabel: string, 
/**
 * "identity as first seen", "identity changed: …".
 */
identityLabel: string, 
/**
 * Their identity changed since first seen: their votes do not count.
 */
changed: boolean, };

type MatrixView = { 
/**
 * Whether the bridge is set up; when not, the rest is empty.
 */
setUp: boolean, 
/**
 * "Connected to https://… as @bridge:…" or why not.
 */
connectionLabel: string, connected: boolean, 
/**
 * The room and the team's rule, in words; empty before `userq matrix room`.
 */
roomLabel: string, ruleLabel: string, members: Array<MemberView>, };

type AgentAction = "connect" | "update" | "disconnect";

type AgentRow = { 
/**
 * The name `userq setup` takes.
 */
name: string, displayName: string, 
/**
 * "2.1.332 (Claude Code) · tested with 2.1.332", or that it is not on PATH.
 */
versionLabel: string, 
/**
 * Its questions come here.
 */
connected: boolean, 
/**
 * How it stands, in words: connected, not connected, out of date, not trusted.
 */
stateLabel: string, 
/**
 * What a click offers.
 */
action: AgentAction, };

type AgentsView = { 
/**
 * Installed or set up, in the order `userq setup` names them.
 */
agents: Array<AgentRow>, 
/**
 * Why nothing can be connected (no `userq` to run the hooks), if so.
 */
problem: string | null, 
/**
 * Which agents User Questions connects, for when none is found.
 */
knownLabel: string, };

type ChangesView = { 
/**
 * Which version setup writes for, and each change to a file, one a line.
 */
lines: Array<string>, 
/**
 * Nothing to change.
 */
nothing: boolean, };

type DeadlineChoice = { 
/**
 * What `set_deadline` takes back: `off` or a duration.
 */
value: string, 
/**
 * "wait for me", "deny after 30 minutes".
 */
label: string, };

type DeadlineView = { 
/**
 * The value of the choice in force: `off`, or a duration (`30m`).
 */
current: string, choices: Array<DeadlineChoice>, };

type Language = { tag: string, name: string, };

type UiText = { lang: string, languages: Array<Language>, messages: { [key in string]?: string }, };

type HistoryProblem = { paused: boolean, why: string, };

type Status = { doNotDisturb: boolean, socket: string, 
/**
 * The question a notification click asked to show, once.
 */
focus: string | null, 
/**
 * Why the history is not kept (a file that cannot be opened or written).
 */
historyProblem: HistoryProblem | null, 
/**
 * How many questions the page may build before it is loaded again, once nothing
 * waits.
 */
renewAfter: number, };

type ErrorCode = "EMPTY_QUESTIONS" | "BAD_INTENT" | "NO_PROVIDER" | "ASK_ABORTED" | "CALLER_NOT_LIVE" | "DELEGATED_CALLER" | "BAD_REQUEST" | "BAD_ANSWER" | "NOT_PENDING" | "AGENT_LIVE" | "SHUTTING_DOWN" | "ASK_CANCELLED" | "BAD_REPLY" | "SERVER_GONE" | "NO_SERVER" | "TOO_MANY_CONNECTIONS" | "BAD_LANGUAGE" | "HISTORY" | "NO_SUCH_RULE" | "BAD_PICTURE" | "RELAY" | "SETUP" | "DEADLINE_PASSED" | "MATRIX";

type UiError = { 
/**
 * One of [`ErrorCode`]'s (the page sees their union, `ErrorCode`).
 */
code: ErrorCode, message: string, };

type Answer = { answers: Array<AnswerItem>, };

type AnswerItem = { id: string, selected: Array<string>, custom?: string, };

type RememberFor = "client" | "everyone" | { "way": number };

type PartView = { text: string, does: string, why: string, 
/**
 * A rule allows it: shown quieter than the parts that brought the question.
 */
allowed: boolean, };

type PlaceView = { project: string | null, 
/**
 * The project's whole path, for a tooltip.
 */
projectPath: string | null, branch: string | null, folder: string | null, };

type SaysView = { description: string | null, lastMessage: string | null, };

type WayView = { 
/**
 * What `answer_question`'s `remember` names it by.
 */
way: number, 
/**
 * "“cargo test …” with any arguments, in ~/src/shop".
 */
label: string, 
/**
 * "would have answered 3 past questions".
 */
pastLabel: string | null, };
