# User Questions, English. Every message a person reads; what a model reads (error
# texts, tool descriptions, JSON answers) and an agent's own words are not here.
# A new language: copy this file to locales/<BCP 47 tag>.ftl and translate it.

language-name = English

## The window

window-title = User Questions
window-title-count = User Questions ({ $count })
window-waiting = { $count } waiting
window-empty = No questions waiting. Agents' questions appear here as they ask.
window-waiting-list = Waiting questions, by agent
window-dnd = Do not disturb
window-language = Language
window-deadline = Unanswered questions
window-deadline-off = wait for me
window-deadline-seconds = { $count ->
        [one] deny after 1 second
       *[other] deny after { $count } seconds
    }
window-deadline-minutes = { $count ->
        [one] deny after 1 minute
       *[other] deny after { $count } minutes
    }
window-deadline-hours = { $count ->
        [one] deny after 1 hour
       *[other] deny after { $count } hours
    }
window-deadline-no-folder = There is no folder for the settings (set USERQ_CONFIG_DIR or HOME).
window-deadline-cannot-keep = The deadline cannot be kept in { $path }: { $error }
window-shortcut-pick = pick an option
window-shortcut-submit = submits
window-shortcut-hide = hides the window
window-reason = Tell the agent why, and deny
window-reason-hint = Tell the agent why, and deny (Enter)
window-approve-drops-feedback = Approve sends none of your comments: the agent reads them only with Request changes. Press Approve again to approve without them.
window-feedback = Feedback
window-feedback-placeholder = Notes on the whole plan (sent with Revise, and with Approve as notes)
window-other = Other
window-other-placeholder = Other…
window-your-answer = Your answer
window-skip = Skip this question
window-submit = Submit
window-dismiss = Dismiss
window-no-agent = No agent
window-machine = The machine the agent runs on
window-review-hint = Click a line's number to comment on it; shift-click another to comment on the lines between.
window-review-comment = Your comment
window-review-remove = Remove
window-review-file-comment = Comment on this file
window-review-overall = Comments on the whole change
window-review-unchanged = unchanged lines
window-review-binary = binary file
window-review-renamed = renamed from
window-review-added = new file
window-review-deleted = deleted
window-annotations = Annotations
window-annotate-hint = Select text in the plan to comment on it, ask for it to be removed, or replace it.
window-annotate-comment = Comment
window-annotate-remove = Remove
window-annotate-replace = Replace
window-annotate-comment-placeholder = Your comment
window-annotate-remove-placeholder = Why remove it (optional)
window-annotate-replace-placeholder = Replace it with
window-annotate-discard = Discard this annotation
window-annotation-addressed = addressed
window-annotation-open = open
window-picture-not-one = That is not a picture (PNG, JPEG, GIF or WebP).
window-picture-too-big = The picture is larger than { $mib } MiB.
window-picture = Picture
window-session = session { $session }
# Under an agent's name in the inbox: said only of a subagent (depth 1 and deeper).
window-subagent = { $depth ->
    [1] asked by a subagent
   *[other] asked by a subagent { $depth } levels down
}
window-group-count =
    { $count ->
        [one] 1 question
       *[other] { $count } questions
    }

## The tray

tray-tooltip = User Questions
tray-tooltip-waiting = User Questions: { $count } waiting
tray-open = Open questions ({ $count })
tray-dnd = Do not disturb
tray-autostart = Start at login
tray-quit = Quit
tray-ssh-connecting = { $name }: connecting over SSH…
tray-ssh-forwarding = { $name }: its agents ask here (SSH)
tray-ssh-retrying = { $name }: not reached ({ $said }); trying again

## Notifications

notice-app = User Questions
notice-open = Open
notice-an-agent = an agent
notice-on-machine = { $who } on { $machine }
notice-title-where = { $agent } in { $place }
notice-question-from = Question from { $agent }
notice-more = (+{ $count } more)
notice-burst =
    { $questions ->
        [one] 1 new question
       *[other] { $questions } new questions
    } from { $agents ->
        [one] 1 agent
       *[other] { $agents } agents
    }
notice-burst-body = Open User Questions to answer them.
notice-deadline-denied = Nobody answered in time: denied
notice-deadline-dismissed = Nobody answered in time: dismissed
notice-deadline-body = { $question } (your deadline: { $after })

## userq answer

answer-listening = Answering questions as “{ $name }” (scope { $scope }). Ctrl-C stops.
answer-server-gone = (the server went away; waiting for it to come back)
answer-reconnected = (connected again; answering as “{ $name }”)
answer-withdrawn = (question { $ask } was withdrawn by its asker)
answer-bad-answer = (the answer to { $ask } did not fit: { $message })
answer-sent = (sent)
answer-not-sent = (not sent: { $error })
answer-heading = ━━ Question { $ask } from { $origin } ━━
answer-origin-agent-by = { $depth ->
    [0] { $by }, agent { $agent }
   *[other] { $by }, agent { $agent } (a subagent)
}
answer-origin-agent = { $depth ->
    [0] agent { $agent }
   *[other] agent { $agent } (a subagent)
}
answer-origin-local = a local program
answer-choice-session = ✓ Allow for this session ({ $way })
answer-session-not-kept = The rule for this session could not be kept, so it was allowed once: { $error }
answer-choice-other = ✎ Other (type an answer)
answer-choice-skip = ↷ Skip this question
answer-choice-dismiss = ✗ Dismiss (tell the agent you won't answer)
answer-help-text = Enter with nothing typed skips
answer-help-multi = ↑↓ move, space picks, enter confirms, esc skips
answer-help-select = ↑↓ move, enter picks, esc skips
answer-help-optional = optional; enter for none
answer-help-pick = type to find, ↑↓ move, enter picks, esc skips
answer-help-pick-multi = type to find, ↑↓ move, space marks, enter picks the marked, esc skips
answer-pick-under = (pick under { $root })
answer-pick-none = (nothing there fits; type a path instead)
answer-anything-to-add = Anything to add?
answer-your-answer = Your answer:
answer-feedback = Feedback for the agent:
answer-error = userq answer: { $error }

## userq pending

pending-no-agent = (no agent)
pending-agent = { $depth ->
    [0] { $agent }
   *[other] { $agent } (a subagent)
}
pending-being-offered = being offered
pending-none = No questions waiting.

## Reaching the server (every command that talks to it)

client-not-running = no user-questions server is listening on { $path }; start one with `userq serve` (or the desktop app)
client-closed = the connection to the user-questions server closed
client-too-large = the { $method } request is { $size } bytes, over the socket's limit of { $limit } bytes; send a shorter detail or diff
client-foreign = refusing the server on { $path }: it runs as uid { $uid }, not as this user (uid { $own }); a container that trusts it sets USERQ_SERVER_UID={ $uid }

## userq setup

setup-version-found = { $agent } { $installed } found (this release was tested with { $tested }).
setup-version-unknown = { $agent } is not on PATH: writing what { $tested }, the version this release was tested with, reads.
setup-left-out = { $event } left out: { $agent } { $installed } does not know it (it came in { $since }); run setup again after upgrading.
doctor-not-found = not on PATH
doctor-tested = tested with { $version }
doctor-hooks-current = hooks set up, pointing at this userq
doctor-hooks-stale = hooks out of date (another userq, or an older setup): run `userq setup { $agent }` ({ $detail })
doctor-hooks-absent = not set up: `userq setup { $agent }` sends its prompts here
doctor-hooks-unreadable = its settings cannot be read: { $detail }
doctor-trust-trusted = Codex trusts the hook and runs it
doctor-trust-untrusted = Codex has not trusted the hook yet, so it does not run it: start Codex and choose “Trust all and continue”, or open /hooks and press t
doctor-trust-modified = the hook changed since Codex trusted it, so Codex does not run it: trust it again in Codex's /hooks
doctor-trust-disabled = the hook is turned off in Codex's /hooks
doctor-trust-missing = Codex does not list the hook (see its /hooks for errors in hooks.json)
doctor-trust-unknown = Codex could not be asked whether it trusts the hook: { $error }
doctor-server-ok = the server answers on { $socket }
doctor-server-down = no server answers, so every hook leaves the agent to its own prompt: { $error }
doctor-no-agents = No agent User Questions knows was found on PATH.
setup-unknown-agent = unknown agent “{ $agent }”; choose one of { $agents }
setup-project-only = userq setup: --project is not for { $agent }
setup-no-home = userq setup: HOME is not set
setup-no-self = userq setup: cannot find this program's own path: { $error }
setup-no-cwd = userq setup: cannot read the current folder: { $error }
setup-invalid = userq setup: { $path } is not valid { $format }, so it was left untouched: { $error }
setup-cannot-read = userq setup: cannot read { $path }: { $error }
setup-cannot-write = userq setup: cannot write { $path }: { $error }
setup-trust-only = --trust is for codex, whose hooks run only once trusted; { $agent } runs its hooks as they are.
setup-trust-no-codex = codex is not on PATH, so it cannot be asked to trust the hook: trust it in Codex's /hooks.
setup-trusting = Trusting in Codex: the { $event } hook `{ $command }` from { $source } (hash { $hash }), as Codex's /hooks "Trust" does.
setup-nothing-to-change =
    { $agent }: nothing to change; User Questions { $removing ->
        [yes] is not set up.
       *[no] is set up already.
    }
setup-added-hook = { $dry ->
        [yes] would add
       *[no] added
    } the { $event } hook to { $file }
setup-removed-hook = { $dry ->
        [yes] would remove
       *[no] removed
    } the { $event } hook from { $file }
setup-added-mcp = { $dry ->
        [yes] would add
       *[no] added
    } the MCP server { $name } to { $file }
setup-removed-mcp = { $dry ->
        [yes] would remove
       *[no] removed
    } the MCP server { $name } from { $file }
setup-hooks-on = { $dry ->
        [yes] would turn
       *[no] turned
    } hooks on (hooksConfig.enabled) in { $file }
setup-hooks-off = { $dry ->
        [yes] would turn
       *[no] turned
    } hooksConfig.enabled back off in { $file }
setup-wrote-file = { $dry ->
        [yes] would write
       *[no] wrote
    } { $file }
setup-removed-file = { $dry ->
        [yes] would remove
       *[no] removed
    } { $file } (setup had created it)
setup-done-claude-code =
    Claude Code's permission prompts, questions and plans now come to User Questions.
    For the review_plan tool too: claude mcp add user-questions -- { $userq } mcp
    To leave questions that do not hold it up, and answer its prompts here while its own dialog stays open, start it as a channel: claude --dangerously-load-development-channels server:user-questions
setup-done-codex = Codex asks you to trust new hooks: open /hooks in Codex and trust the user-questions hook, or run `userq setup codex --trust`.
setup-done-copilot = GitHub Copilot CLI's permission prompts now come to User Questions (in every repository; a repository's own hooks still run too).
setup-done-qwen = Qwen Code's permission prompts now come to User Questions.
setup-done-cursor = Cursor's shell commands and MCP tool calls (in the editor and in cursor-agent) now come to User Questions before they run; with no answer, Cursor decides by its own rules.
setup-done-opencode = OpenCode's permission requests and its questions now come to User Questions, through a plugin in OpenCode's plugins folder; with no answer, OpenCode asks in its own prompt.
setup-review-only = userq setup: --review-changes is for claude-code (its Stop hook), not { $agent }
setup-done-droid = Factory Droid's commands and edits that it would ask you about now come to User Questions.
setup-done-antigravity = Antigravity CLI's commands and file changes now come to User Questions first; without an answer from you, its own prompt asks as before.
setup-done-kimi = Kimi Code's commands and file edits are now checked against your rules before they run: a command a rule denies is refused with the rule's reason. Kimi Code's hooks can only refuse, so what a rule allows, and every question, stay with Kimi Code's own prompt.
setup-done-kiro = Kiro CLI has an agent of User Questions now, ~/.kiro/agents/user-questions.json: Kiro CLI's default agent with a hook that checks commands and file writes against your rules, refusing what a rule denies with the rule's reason. Make it your default with `kiro-cli settings chat.defaultAgent user-questions` (or start `kiro-cli chat --agent user-questions`). Kiro CLI's hooks can only refuse, so what a rule allows, and every question, stay with Kiro CLI's own prompt.
setup-done-gemini =
    Gemini CLI's shell commands and file writes now come to User Questions; its policy
    lets them run once you allow them there, and asks in Gemini CLI when no decision comes.

## The labels of User Questions' own intents (permission, plan review), as a person
## sees them; what is sent back stays the label the protocol names.

label-allow = Allow
label-allow-description = Let it run this once
label-deny = Deny
label-deny-description = Do not let it run; the agent is told you said no
label-approve = Approve
label-approve-description = Go ahead with the plan as written
label-revise = Revise
label-revise-description = Change the plan first (say how in the feedback)
label-approve-edits = Approve and auto-accept edits
label-approve-edits-description = Approve, and accept file edits without asking for the rest of this session

## userq hook: an agent's tool call as a question

hook-run-command = Run this command?
hook-edit = Edit { $path }?
hook-write = Write { $path }?
hook-fetch = Fetch { $url }?
hook-use = Use { $tool }?
hook-delete = Delete { $path }?
hook-patch = Change { $count } files?
hook-patch-file = { $change ->
        [add] new file
        [delete] deleted
        [move] moved to { $to }
       *[update] changed
    }
hook-network = Allow network access to { $target }?
hook-mcp = Use { $tool } from the MCP server { $server }?
hook-write-detail = { $exists ->
        [yes] overwrites the file
       *[no] creates the file
    }
hook-always-allow = Always allow { $what }
hook-always-mode = { $mode } mode
hook-always-access = access to { $dirs }
hook-always-this = this
hook-rule = Adds the rule { $where ->
        [session] for this session only (not saved)
        [localSettings] saved for this project, only you (.claude/settings.local.json)
        [projectSettings] saved for this project, everyone who shares it (.claude/settings.json)
        [userSettings] saved for all your projects (~/.claude/settings.json)
       *[other] saved where Claude Code suggests
    }
hook-no-plan = (Claude Code sent no plan text.)
hook-plan-file = Plan file:
label-approve-changes-description = The changes are good as they are
label-request-changes = Request changes
label-request-changes-description = The agent goes on working, with your comments
label-review-question = Approve these changes?
label-review-header = Code review
label-plan-question = Approve this plan?
label-plan-header = Plan review

## userq history and userq rules

history-no-folder = userq history: no folder for the history (set USERQ_DATA_DIR or HOME)
history-cannot-open = userq: cannot use the history { $path }: { $error }
history-cleared = { $count ->
        [one] Deleted 1 ask from the history.
       *[other] Deleted { $count } asks from the history.
    }
history-empty = The history is empty.
history-pending = pending
history-skipped = (skipped)
# How an ask ended without an answer, by the code its asker got.
history-ended = { $code ->
    [ASK_CANCELLED] dismissed
    [DEADLINE_PASSED] dismissed at your deadline
    [ASK_ABORTED] withdrawn by the agent
    [NO_PROVIDER] nobody was there to answer
    [SHUTTING_DOWN] the server stopped
    [SERVER_GONE] the server stopped
   *[other] ended without an answer
}
# Who decided how an ask ended (the history, its export, the window's History).
decider-window = you, in the window
decider-terminal = you, in a terminal
decider-machine = you, on { $machine }
team-yours = You voted { $label }.
team-approved = { $who } approved.
team-needed = { $needed ->
        [one] One more approval needed.
       *[other] { $needed } more approvals needed.
    }
team-counted = Counted as your vote: { $progress }
sentences = { $first } { $second }
decider-agent-prompt = the agent's own prompt (its hook let go)
decider-desk = you at the desk
decider-matrix = { $people } on Matrix
decider-rule = remembered answer { $id }
decider-deadline = your deadline
decider-policy = the policy: { $rules }
decider-answerer = { $name }
history-col-asked = asked
history-col-waited = waited
history-col-agent = agent
history-col-question = question
history-col-outcome = answer or end
history-col-by = answered by
deadline-off = Questions wait for you: no deadline.
deadline-on = After { $after } unanswered, a permission is denied, a plan or a change is sent back, and any other question is dismissed.
deadline-no-folder = userq deadline: no folder for the settings (set USERQ_CONFIG_DIR or HOME)
deadline-cannot-keep = userq deadline: cannot write { $path }: { $error }
matrix-no-folder = userq matrix: no folder for the bridge's keys (set USERQ_DATA_DIR or HOME)
matrix-password-file = userq matrix: cannot read the password file { $path }: { $error }
matrix-password-empty = userq matrix: the password file { $path } is empty
matrix-init-done = The bridge is set up as { $user }, device { $device }, cross-signed.
matrix-recovery-key = Its recovery key, shown this once (keep it somewhere safe; it restores the bridge's keys from the homeserver's backup):
matrix-status-reached = Homeserver: { $url }, reached.
matrix-status-unreachable = Homeserver: { $why }
matrix-status-account = The bridge: { $user }, device { $device }.
matrix-status-signed = Cross-signed: yes (Element in strict mode takes its messages).
matrix-status-unsigned = Cross-signed: no (Element in strict mode refuses its messages); `userq matrix leave` and `init` again.
matrix-left = The bridge ({ $user }) is logged out and its keys are removed.
matrix-room-done = The bridge asks in { $room }.
matrix-rule-anyone = The first answer from anyone in the room counts.
matrix-rule-team = { $quorum ->
        [one] One approval
       *[other] { $quorum } approvals
    } of { $approvers } needed for { $what }; one approver's no ends it.
matrix-rule-when = { $what } that says { $texts }
matrix-rule-list-separator = {", "}
kind-generic = a question
kind-permission = a permission
kind-plan-review = a plan
kind-code-review = a change under review
kind-elicitation = a form
kind-file-pick = a choice of files
matrix-rule-desk = An answer at the desk is one vote, of a person of its own.
matrix-rule-desk-named = An answer at the desk is { $desk }'s vote.
matrix-rule-both = { $team } { $after }
matrix-rule-at-once = Questions go to the room at once.
matrix-rule-after = Questions go to the room after { $after } unanswered here.
matrix-status-no-room = Room: none yet (`userq matrix room --invite @you:SERVER`).
matrix-status-room = Room: { $room }.
matrix-status-member = { $user } ({ $membership })
matrix-status-approver = { $user } ({ $membership }), approver
matrix-identity-trusted = identity as first seen
matrix-identity-changed = identity CHANGED since first seen: votes not counted until `userq matrix trust`
matrix-identity-not-seen = identity pinned at their first vote
matrix-identity-none = no verified identity yet: votes cannot count
matrix-trusted = { $user }'s identity is trusted now (master key { $key }): their votes count.
matrix-error-no-identity = { $user } has no cross-signing identity yet: they set up their keys in Element first
matrix-error-bad-url = { $url } is not a homeserver URL: give one like https://matrix.example.org
matrix-error-bad-user = { $user } is not a Matrix user id: give one like @bridge:example.org
matrix-error-unreachable = cannot reach the homeserver at { $url }: { $error }
matrix-error-wrong-password = the homeserver refused the password of { $user }
matrix-error-in-use = { $user } already has an identity (cross-signing keys) made on another device: give the bridge an account of its own, which it sets up itself
matrix-error-set-up = the bridge is set up already (as { $user }); `userq matrix leave` first to set it up again
matrix-error-not-set-up = the bridge is not set up: `userq matrix init HOMESERVER_URL --user @NAME:SERVER --password-file FILE`
matrix-error-files = the bridge's files in { $path }: { $error }
matrix-error-homeserver = the homeserver at { $url } said: { $error }
matrix-error-approver-outside = approver { $what } is not in the room: add --invite { $what }
matrix-error-quorum-alone = --quorum needs --approvers
matrix-error-quorum-zero = --quorum is at least 1
matrix-error-quorum-too-big = --quorum { $quorum } is more than the { $approvers } approvers named
matrix-error-bad-room = { $what } is not a room id (!…:server)
matrix-error-not-encrypted = { $what } is not end-to-end encrypted: turn encryption on in its settings, or let userq make a room
matrix-error-desk-not-approver = --desk { $what } is not one of the approvers: add it to --approvers
deadline-not-a-duration = "{ $given }" is not a duration: give one like 30m or 2h, or off
deadline-too-short = "{ $given }" is shorter than a second: give one like 30m or 2h, or off
policy-file-unreadable = userq rules: { $path } cannot be read as rules: { $error }
policy-would-add = Would add: { $rule } (nothing saved)
policy-no-project-file = userq rules trust: no .userq/rules.toml in { $dir } or above it
policy-trusted = Trusted { $file } (sha256 { $hash }…, { $count ->
        [one] one rule
       *[other] { $count } rules
    }): its rules apply until it changes.
policy-untrusted = { $file } is not trusted, or changed since: its rules do not apply. Read it, then run userq rules trust.
policy-verdict-allow = allow
policy-verdict-ask = ask
policy-verdict-deny = deny
policy-by-rule = { $rule } ({ $origin })
policy-by-read-only = read-only: it only reads ({ $origin })
policy-by-maybe = may be { $rule } ({ $origin }): a word known only when it runs stands where the rule has one
policy-by-no-rule = no rule allows it
policy-unreadable-syntax = cannot be read as bash
policy-unreadable-dynamic-program = the program is known only when it runs
policy-unreadable-runs-text = { $subject } runs text that cannot be read here
policy-unreadable-defines-function = defines the function { $subject }, which may hide any program
policy-unreadable-fed-to-interpreter = { $subject } runs a program fed to it on its input
policy-unreadable-changes-what-runs = { $subject } may change which program runs or what it reads
policy-unreadable-network = opens a network connection
policy-unreadable-dynamic-script = runs a script known only when it runs: { $subject }
policy-unreadable-too-deep = nested too deeply to read
policy-unreadable-too-long = longer than a person reviews by eye: 10,000 characters
policy-unreadable-evaluates = { $subject } sets a variable or evaluates a value, which can run what the value holds
policy-unreadable-dynamic-input = reads a file named only when it runs
policy-unreadable-unknown = not understood: { $subject }
policy-last-used = { $uses }, last { $when }
policy-unused = not used yet
policy-origin-yours = yours
policy-origin-import = imported from { $agent }
policy-scope-session = session { $id }
policy-scope-everywhere = everywhere
policy-import-rule = would add: { $rule }
policy-import-left-out = left out: { $rule } ({ $why })
policy-import-unreadable = userq rules import: cannot read { $file }: { $why }
policy-left-out-spans-words = a * inside a command spans words there, and only a word here
policy-left-out-empty-command = an empty command
policy-left-out-relative-to-settings = a path relative to the settings file
policy-left-out-fetch-not-domain = a fetch rule other than a domain
policy-left-out-no-kind = a tool the policy has no kind of action for
policy-left-out-not-a-rule = not a rule the agent reads
policy-left-out-pattern = a regular expression, which the policy does not read
policy-left-out-some-modes = it holds only in some of the agent's modes
policy-left-out-default = the agent's default for what no rule matches; here you decide that
policy-left-out-literal-star = a * the agent reads as itself, and as any text here
policy-left-out-too-many = more alternatives than an import expands
policy-left-out-everything = every tool at once: add the rules one by one
policy-left-out-one-character = a ? wildcard, which the policy has not
policy-left-out-space-in-word = a word with a space in it, which a rule's words cannot say
policy-left-out-whole-text = a pattern over a whole path or address, where * crosses folders
policy-left-out-one-agent = it holds for one of the agent's own sub-agents
policy-left-out-widens = an allow beside a rule left out that names the same thing: without that rule it could allow what the agent refused
policy-import-none = No rules to import.
policy-import-confirm = Nothing saved: run again with --yes to add these rules.
policy-import-added = Added { $count ->
        [one] one rule
       *[other] { $count } rules
    } to your rules.
policy-would-have-decided = It would have decided { $count ->
        [one] one past question
       *[other] { $count } past questions
    } in the history that no rule decided.
policy-kept-yours = your rules, { $place }
policy-kept-project = { $file }, { $place }
policy-kept-import = imported from { $agent }, { $place }
rules-empty-question = userq rules: --question must not be empty
rules-empty-answer = userq rules: --answer must name an option label
rules-none = No remembered answers.
rules-every-client = every client
rules-uses = { $count ->
        [one] used once
       *[other] used { $count } times
    }
rules-no-such = userq rules: there is no rule { $id }
window-history-off = History is off.
window-history-off-why = { $file } cannot be used ({ $error }). Questions go on, unrecorded until the app starts again.
window-history-paused = History is paused.
window-history-paused-why = { $file } cannot be written ({ $error }). Questions go on; answers are recorded again once it can be written.
window-tab-questions = Questions
window-tab-history = History
window-tab-rules = Rules
window-history-search = Search questions and answers
window-history-empty = Nothing asked yet.
window-history-more = Older
window-history-waited = waited { $waited }
window-history-by = by { $by }
window-history-plan = Open the plan
window-rules-problem = Your rules decide nothing until this is fixed: { $error }
window-rules-policy = Before you are asked
window-rules-remembered = Remembered answers
window-rules-remove = Remove
window-rules-policy-empty = No rules yet. Add them with userq rules allow, ask or deny, or bring an agent's own with userq rules import.
window-rules-hint = What these rules allow or deny is decided before you are asked, in every agent; remembered answers answer a question you decided before, for the clients named.
window-rules-empty = No remembered answers.
window-rules-every-client = every client
window-rules-forget = Forget
window-rules-uses = { $count ->
        [one] used once
       *[other] used { $count } times
    }
window-tab-agents = Agents
window-agents-hint = Agents connected here send their permission prompts and questions to this window. Connecting one does what userq setup does; you see the change first.
window-agents-none = No agent found on PATH.
window-agents-known = User Questions connects { $agents }.
window-agents-no-userq = userq was found neither beside this app nor on PATH, so no agent can be connected: install User Questions' command-line tool.
window-agents-connected = Connected: its questions come here.
window-agents-not-connected = Not connected.
window-agents-stale = Out of date (another userq, or an older setup): update it.
window-agents-unreadable = Its settings cannot be read: { $detail }
window-agents-unknown = There is no agent named { $agent }.
window-agents-connect = Connect
window-agents-update = Update
window-agents-disconnect = Disconnect
window-agents-apply = Make these changes
window-agents-cancel = Cancel
window-agents-nothing = Nothing to change.
window-empty-connect = Connect an agent
window-tab-machines = Machines
window-machines-hint = Machines paired through a NATS broker show each other's questions: answer from whichever desk you are at.
window-machines-unpaired = This machine is in no circle. On the command line, start one with "userq relay init nats://HOST:PORT", or join one with "userq relay join CODE" and an invite from a machine of it.
window-machines-checking = Reaching the broker…
window-machines-connected = Connected to { $broker }
window-machines-not-connected = Not connected to { $broker }: { $error }
window-machines-this = this machine
window-machines-never = not heard from yet
window-machines-seen-now = heard from just now
window-machines-seen-minutes = heard from { $count } min ago
window-machines-seen-hours = heard from { $count } h ago
window-machines-seen-days = { $count ->
        [one] heard from a day ago
       *[other] heard from { $count } days ago
    }
window-machines-invite = Invite a machine
window-matrix-title = Your phone, over Matrix
window-matrix-none = No Matrix bridge. On the command line, set one up with "userq matrix init HOMESERVER_URL --user @NAME:SERVER --password-file FILE", then "userq matrix room --invite @YOU:SERVER".
window-matrix-checking = Reaching the homeserver…
window-matrix-connected = Connected to { $homeserver } as { $user }
window-matrix-not-connected = Not connected to { $homeserver }: { $error }
window-matrix-no-room = No room yet: "userq matrix room --invite @YOU:SERVER" makes one.
window-matrix-room = Asking in { $room }, end-to-end encrypted
window-matrix-approver-joined = approver, joined
window-matrix-approver-invited = approver, invited
window-matrix-joined = joined
window-matrix-invited = invited
window-machines-invite-how = On the other machine, run "userq relay join" with this code, or scan it. It works once, for { $minutes } minutes, while this app runs.
window-error-relay = The relay: { $error }
window-remember = Remember this answer
window-remember-client = for { $client }
window-remember-everyone = for every client
window-shortcut-move = next and previous question
window-revision-title = Changed since the last version
window-revision-feedback = You said:
window-error-history = The history could not be read or written: { $error }
window-error-no-history = No history is kept.
window-error-no-such-rule = There is no remembered answer { $id }.
window-error-bad-language = There is no catalog for the language “{ $lang }”; there are: { $known }.

## MCP forms (elicitations)

label-send = Send
label-open = Open
label-decline = Decline
elicit-send = Send these answers to { $server }
elicit-decline = Tell { $server } you will not answer
elicit-from = The MCP server **{ $server }** asks for this. What you send goes to it, and nowhere else.
elicit-yes = Yes
elicit-no = No
elicit-not-sent = Not sent:
elicit-required = Required.
elicit-default = Default: { $value }
elicit-number = A number.
elicit-integer = A whole number.
elicit-range = { $bound ->
        [both] From { $min } to { $max }.
        [min] At least { $min }.
       *[max] At most { $max }.
    }
elicit-length = { $bound ->
        [both] { $min } to { $max } characters.
        [min] At least { $min } characters.
       *[max] At most { $max } characters.
    }
elicit-count = { $bound ->
        [both] Pick { $min } to { $max }.
        [min] Pick at least { $min }.
       *[max] Pick at most { $max }.
    }
elicit-email = An email address.
elicit-uri = A URI, such as https://example.com/page.
elicit-date = A date, such as 2026-12-31.
elicit-date-time = A date and time, such as 2026-12-31T09:30:00Z.
elicit-text = Text.
elicit-invalid = “{ $text }” does not fit the rules below.
elicit-missing = This field is required.
elicit-url-question = { $server } asks you to open a page
elicit-url-open = Open the page in your browser, and tell the server you did
elicit-url-host = The page is on **{ $host }**; it is opened only if you say so.
elicit-no-host = an address that is not a web address

## userq ssh

ssh-forwarding = Forwarding { $host }:{ $path } to this machine: agents there ask here.
ssh-dropped = The forward to { $host } dropped; making it again.
ssh-retry = Cannot reach { $host } yet ({ $ssh }); trying again.
ssh-refused = userq ssh: the forward to { $host } failed: { $ssh }
ssh-no-userq = Note: { $host } has no userq on its PATH. Install the user-questions package there, or copy the userq binary onto its PATH, for its agents' hooks to reach this machine.
ssh-remembered = { $host } is remembered as { $name }: `userq serve` or the desktop app keeps it forwarded whenever it runs (`userq ssh --forget { $name }` stops it).
ssh-not-remembered = userq ssh: no host named { $name } is remembered (`userq ssh --list` lists them)

## userq review

review-nothing = Nothing to review: no changes.
review-approved = Approved.
review-skipped = userq review: the review was skipped; no decision.
review-interrupted = userq review: interrupted; the question was withdrawn.
review-no-repo = not in a git repository (pipe a diff in instead)

## Remembering an Allow as rules (policy::words::way)
remember-command-exact = “{ $command }” exactly
remember-command-prefix = “{ $command } …” with any arguments
remember-read = reading { $path }
remember-edit = editing { $path }
remember-fetch = fetching from { $domain }
remember-mcp-tool = the MCP tool { $tool }
remember-mcp-server = every tool of the MCP server { $server }
remember-in-session = in this session only
remember-in-project = in { $project }
remember-everywhere = everywhere
remember-way = { $what }, { $where }
remember-past = { $count ->
        [0] would have answered no past question
        [one] would have answered one past question
       *[other] would have answered { $count } past questions
    }
window-remember-allow = Don't ask again for
window-remember-once = nothing more: allow just this once
window-allow-remember = Allow and remember
window-remember-no-way = There is no way { $way } to remember this answer by.
window-rules-projects = Projects' own rules
window-project-trusted = Trusted: its rules apply in its folder and under it.
window-project-untrusted = Not trusted: its rules decide nothing until you trust this file as it is now.
window-project-changed = Changed since you trusted it: its rules decide nothing until you trust it again.
window-project-trust = Trust
window-project-not-a-file = { $file } is not a project's .userq/rules.toml that can be read.
window-project-not-trusted = { $file } was not trusted: { $error }
window-rules-edit = Edit
window-rules-save = Save
window-rules-cancel = Cancel
window-rules-not-saved = Not saved: { $error }

## userq answer --allow/--deny (src/bin/userq/decide.rs)
answer-batch-allow = allow { $id }: { $what }
answer-batch-deny = deny  { $id }: { $what }
answer-batch-twice = userq answer: { $id } is both allowed and denied; nothing was sent
answer-batch-unknown = userq answer: { $id } is not a pending question (userq pending lists them); nothing was sent
answer-batch-not-permission = userq answer: { $id } is not a permission request, and only those are answered together: answer it in its own form; nothing was sent
answer-batch-failed = userq answer: { $id }: { $error }

## What each part of a request does, and why it reached you (policy::words)
part-reads = only reads
part-deletes = deletes files
part-root = runs as root
part-installs = installs packages
part-network = reaches the network
part-writes = writes { $subject }
part-writes-outside = writes outside the project: { $subject }
part-unknown = not known
why-allowed = allowed: { $rule }
why-denied = denied: { $rule }
why-ask-rule = a rule says ask: { $rule }
why-may-fit = a rule may fit it: { $rule }
why-no-rule = no rule allows it
why-unreadable = it cannot be read with certainty
window-agent-says = The agent says
window-agent-last-message = Its last message
window-batch-allow = Allow marked
window-batch-deny = Deny marked
window-batch-clear = Clear marks
window-batch-allow-these = Allow exactly these requests? Nothing is remembered.
window-batch-deny-these = Deny exactly these requests?
window-batch-allow-them = Allow them
window-batch-deny-them = Deny them
window-batch-back = Back
window-batch-not-permission = { $id } is not a permission request: answer it in its own form. Nothing was sent.
window-shortcut-mark = marks a permission for a batch (or Ctrl+click, Shift+click)
window-allow-session = Allow for this session
window-parts = What it would do
pending-part = { $part }: { $does } ({ $why })
pending-pick = { $of ->
    [folders] picks folders
   *[files] picks files
  } under { $root }

## What a person reads of a request in one look (glance.rs)
glance-branch = on { $branch }
glance-folder = in { $folder }
glance-session = session { $session }
glance-machine = on { $machine }
glance-says = The agent says: { $words }
glance-said-last = Its last message: { $words }
rules-no-such-project = --project: { $path } is not a folder
window-pick-search-files = Search files
window-pick-search-folders = Search folders
window-pick-under = Under
window-pick-hidden = Hidden files
window-pick-preview = Preview
window-pick-marked = Marked
window-pick-submit = Pick
window-pick-none = Nothing to pick: type fewer letters.
window-pick-count = { $shown } of { $total }
window-pick-count-cut = { $shown } of more than { $total }
window-pick-nothing = Nothing fits
window-pick-binary = Not text ({ $bytes } bytes)
window-pick-keys-one = ↑↓ move · Enter picks
window-pick-keys-many = ↑↓ move · Space marks · Enter picks
