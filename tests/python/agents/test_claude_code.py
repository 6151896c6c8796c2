"""Claude Code itself (its CLI from npm, pinned), with only the model scripted: `userq
setup claude-code` writes the hooks into the agent's home, Claude Code runs `userq
hook claude-code`, `userq serve` takes the ask, and a person's answers come from a
protocol answerer on the socket. What the agent does next is read from what it sends
the model, and from the files it leaves."""

import json
import re
import subprocess
import sys
from pathlib import Path

from models import Anthropic, result_text, text, tool, tool_results
from conftest import USERQ, Answerer
from world import AGENTS, Person, StreamSession, a_project_file_decides_only_while_trusted, agent  # noqa: F401 (a fixture)


def claude(agent, model, *args):
    env = {"ANTHROPIC_BASE_URL": model.url, "ANTHROPIC_API_KEY": "scripted",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    return [str(AGENTS / "claude"), *args], env


def last_results(model):
    """The tool results the agent sent the model last."""
    return [result_text(r) for r in tool_results(model.main_requests()[-1])]


WRITE = tool("Bash", {"command": "echo hello-from-bash > greeting.txt && cat greeting.txt",
                      "description": "Write a greeting"}, say="I will write the greeting file, then show it.")


def test_a_command_allowed_runs_and_the_model_reads_its_output(agent, sock):
    agent.setup("claude-code")
    model = Anthropic([WRITE, text("done")])
    person = Person(sock, name="person")
    argv, env = claude(agent, model, "-p", "greet", "--output-format", "json")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stderr
    q = asked["questions"][0]
    assert q["question"] == "Run this command?"
    assert "echo hello-from-bash > greeting.txt" in q["detail"]
    assert asked["context"]["source"] == "Claude Code"
    # What the agent says: the call's description, and its message before the call,
    # read from the end of the transcript Claude Code names.
    assert asked["context"]["description"] == "Write a greeting"
    assert asked["context"].get("lastMessage") == "I will write the greeting file, then show it.", asked["context"]
    assert (agent.work / "greeting.txt").read_text() == "hello-from-bash\n"
    assert any("hello-from-bash" in r for r in last_results(model)), last_results(model)


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("claude-code")
    model = Anthropic([WRITE, text("understood")])
    person = Person(sock, name="person")
    argv, env = claude(agent, model, "-p", "greet", "--output-format", "json")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "not in this folder"})
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stderr
    assert not (agent.work / "greeting.txt").exists()
    assert any("not in this folder" in r for r in last_results(model)), last_results(model)


def test_with_no_server_claude_code_goes_on_by_its_own_rules(agent, tmp_path):
    agent.setup("claude-code")
    agent.env["USERQ_SOCKET"] = str(tmp_path / "nobody.sock")
    model = Anthropic([WRITE, text("ok")])
    argv, env = claude(agent, model, "-p", "greet", "--output-format", "json")
    out = agent.run(argv, env)
    # `-p` with nobody to ask denies what needs permission, as it does with no hook.
    assert out.returncode == 0, out.stderr
    assert not (agent.work / "greeting.txt").exists()
    denied = json.loads(out.stdout)["permission_denials"]
    assert [d["tool_name"] for d in denied] == ["Bash"], denied


def test_a_command_the_rules_allow_runs_without_the_person(agent, sock):
    agent.setup("claude-code")
    agent.rules("allow", "echo")
    agent.rules("allow", "--edit", str(agent.work / "greeting.txt"))
    agent.rules("allow", "--read-only")
    model = Anthropic([WRITE, text("done")])
    # Nobody answers on the socket: an ask would wait until Claude Code gave up.
    argv, env = claude(agent, model, "-p", "greet", "--output-format", "json")
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stderr
    assert (agent.work / "greeting.txt").read_text() == "hello-from-bash\n"
    assert any("hello-from-bash" in r for r in last_results(model)), last_results(model)


def test_a_part_no_rule_allows_reaches_the_person(agent, sock):
    agent.setup("claude-code")
    agent.rules("allow", "echo")
    agent.rules("allow", "--read-only")
    joined = tool("Bash", {"command": "echo hi && rm -rf target", "description": "Clean up"})
    (agent.work / "target").mkdir()
    model = Anthropic([joined, text("understood")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": [], "custom": "keep target"})
    argv, env = claude(agent, model, "-p", "clean", "--output-format", "json")
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stderr
    assert "echo hi && rm -rf target" in asked["questions"][0]["detail"]
    assert (agent.work / "target").is_dir()
    assert any("keep target" in r for r in last_results(model)), last_results(model)


def test_a_denied_command_behind_a_wrapper_is_refused_with_the_rules_reason(agent, sock):
    agent.setup("claude-code")
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    wrapped = tool("Bash", {"command": "timeout 5 sudo touch /root-owned", "description": "Touch"})
    model = Anthropic([wrapped, text("understood")])
    argv, env = claude(agent, model, "-p", "touch", "--output-format", "json")
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stderr
    assert any("nothing runs as root here" in r for r in last_results(model)), last_results(model)


def test_a_deny_holds_where_claude_code_asks_no_one(agent, sock):
    """In bypassPermissions Claude Code never reaches PermissionRequest: the deny is
    refused at PreToolUse, with the rule's reason, and nobody is asked."""
    agent.setup("claude-code")
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    wrapped = tool("Bash", {"command": "timeout 5 sudo id > sudo-ran.txt", "description": "Who am I"})
    model = Anthropic([wrapped, text("understood")])
    argv, env = claude(agent, model, "-p", "who", "--output-format", "json", "--permission-mode", "bypassPermissions")
    # Claude Code refuses to skip its permissions as root outside a sandbox.
    out = agent.run(argv, dict(env, IS_SANDBOX="1"))
    assert out.returncode == 0, out.stderr
    assert not (agent.work / "sudo-ran.txt").exists()
    assert any("nothing runs as root here" in r for r in last_results(model)), last_results(model)


def test_a_project_rules_file_allows_only_while_trusted(agent, sock):
    agent.setup("claude-code")
    step = tool("Bash", {"command": "touch made.txt", "description": "Make a file"})

    def run():
        argv, env = claude(agent, Anthropic([step, text("ok")]), "-p", "make", "--output-format", "json")
        out = agent.run(argv, env)
        assert out.returncode == 0, out.stderr

    a_project_file_decides_only_while_trusted(agent, sock, run, agent.work / "made.txt")


def test_a_sessions_rules_allow_in_it_and_end_with_it(agent, sock):
    agent.setup("claude-code")
    session = "5b0c7a52-9f1e-4d3a-8c6b-2e7f1a9d4c30"
    agent.rules("allow", "touch", "--session", session)
    agent.rules("allow", "--read-only")
    step = tool("Bash", {"command": "touch made.txt", "description": "Make a file"})
    model = Anthropic([step, text("ok")])
    # Nobody answers on the socket: only the session's rule can let it run.
    argv, env = claude(agent, model, "-p", "make", "--session-id", session, "--output-format", "json")
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stderr
    assert (agent.work / "made.txt").exists()
    # Claude Code's SessionEnd took the session's rule out as the session ended.
    listed = [json.loads(line) for line in agent.rules("list", "--json").splitlines()]
    assert [r["rule"] for r in listed] == ["allow read-only"], listed


def stream(agent, model, mode):
    argv, env = claude(agent, model, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                       "--verbose", "--permission-prompt-tool", "stdio", "--permission-mode", mode)
    return StreamSession(argv, agent.work, dict(agent.env, **env), "go")


def test_ask_user_question_answers_reach_the_model(agent, sock):
    agent.setup("claude-code")
    question = {"question": "Which package manager?", "header": "Packages", "multiSelect": False,
                "options": [{"label": "pnpm", "description": "Fast, strict"}, {"label": "npm", "description": "Default"}]}
    model = Anthropic([tool("AskUserQuestion", {"questions": [question]}), text("pnpm it is")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "q1", "selected": ["pnpm"]})
    session = stream(agent, model, "default")
    result = session.result()
    answered.join(5)
    assert result["subtype"] == "success", result
    assert [o["label"] for o in asked["questions"][0]["options"]] == ["pnpm", "npm"]
    assert any('"Which package manager?"="pnpm"' in r for r in last_results(model)), last_results(model)


def plan_file(body):
    """The plan file Claude Code names in plan mode's instructions."""
    found = re.search(r"(/[^\s\"'`]*/\.claude/plans/[\w.-]+\.md)", str(body))
    assert found, "plan mode names no plan file"
    return found.group(1)


PLAN = "# Add a cache\n\n1. Put an LRU in front of the store\n2. Test eviction"


def plan_script(then):
    return [
        lambda body: tool("Write", {"file_path": plan_file(body), "content": PLAN}),
        tool("ExitPlanMode", {"plan": PLAN}),
        *then,
    ]


def test_a_plan_approved_with_accept_edits_leaves_plan_mode_and_edits_unasked(agent, sock):
    agent.setup("claude-code")
    model = Anthropic(plan_script([
        lambda body: tool("Write", {"file_path": str(agent.work / "cache.py"), "content": "CACHE = {}\n"}),
        text("built"),
    ]))
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "plan", "selected": ["Approve and auto-accept edits"]})
    session = stream(agent, model, "plan")
    result = session.result()
    answered.join(5)
    assert result["subtype"] == "success", result
    review = asked["questions"][0]
    assert review["intent"]["kind"] == "plan-review"
    assert "Put an LRU in front of the store" in review["detail"]
    # The edit after the plan was not asked about: the session accepts edits now.
    assert (agent.work / "cache.py").read_text() == "CACHE = {}\n"
    assert person.messages.empty(), person.messages.get()
    approved = [r for body in model.main_requests() for r in map(result_text, tool_results(body))
                if "approved" in r]
    assert approved, "the model never read that the plan was approved"


def test_a_plan_revised_brings_the_feedback_to_the_model(agent, sock):
    agent.setup("claude-code")
    model = Anthropic(plan_script([text("revising")]))
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "plan", "selected": [], "custom": "Use SQLite instead of an LRU"})
    session = stream(agent, model, "plan")
    session.result()
    answered.join(5)
    assert any("Use SQLite instead of an LRU" in r for r in last_results(model)), last_results(model)


def test_a_plan_approved_with_notes_brings_the_notes_to_the_model(agent, sock):
    agent.setup("claude-code")
    model = Anthropic(plan_script([text("building, minding the notes")]))
    person = Person(sock, name="person")
    # As the window sends it: a single choice's text replaces it, so an approval with
    # notes is a text under the approval's preamble (docs/review.md).
    notes = ("Plan approved, with notes from the reviewer: go ahead with the plan and follow these notes as you "
             "carry it out.\n\nLine 3, \"an LRU\":\n  Cap the LRU at 1,000 entries.")
    _, answered = person.answer_next({"id": "plan", "selected": [], "custom": notes})
    session = stream(agent, model, "plan")
    result = session.result()
    answered.join(5)
    assert result["subtype"] == "success", result
    read = "\n".join(last_results(model))
    assert "approved" in read, read
    assert "Cap the LRU at 1,000 entries." in read, read


def test_an_mcp_servers_form_is_answered_here_and_reaches_the_server_typed(agent, sock, tmp_path):
    agent.setup("claude-code")
    config = tmp_path / "mcp.json"
    server = Path(__file__).parent / "form_server.py"
    config.write_text(json.dumps({"mcpServers": {"forms": {"type": "stdio", "command": sys.executable,
                                                           "args": [str(server)]}}}))
    model = Anthropic([tool("mcp__forms__deploy", {}), text("deployed")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next(
        {"id": "elicitation", "selected": ["Send"]},
        {"id": "region", "selected": ["Europe"]},
        {"id": "replicas", "selected": [], "custom": "3"},
        {"id": "canary", "selected": ["Yes"]},
    )
    argv, env = claude(agent, model, "-p", "deploy it", "--output-format", "json", "--mcp-config", str(config),
                       "--allowedTools", "mcp__forms__deploy")
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stderr
    assert asked["questions"][0]["header"] == "forms", "the server that asks is named"
    assert asked["questions"][0]["question"] == "Where should this go?"
    assert [q["id"] for q in asked["questions"]] == ["elicitation", "region", "replicas", "canary"]
    form = {"action": "accept", "content": {"canary": True, "region": "eu-1", "replicas": 3}}
    assert any(r == "FORM " + json.dumps(form, sort_keys=True) for r in last_results(model)), last_results(model)


def test_a_question_left_for_later_does_not_hold_it_up(agent, sock, tmp_path):
    """`ask_user_question_later` in the real CLI: the agent leaves the question and ends
    its turn before anyone answers; the question waits here, and is withdrawn when the
    session ends. (The answer's arrival as a channel message is not driven here:
    Claude Code 2.1.332 registers channels only behind its remote feature flag
    `tengu_harbor`, which it cannot fetch here, and not in `-p`; test_mcp.py drives
    that through an MCP client.)"""
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"user-questions": {"type": "stdio", "command": str(USERQ),
                                                                    "args": ["mcp"]}}}))
    later = tool("mcp__user-questions__ask_user_question_later", {"questions": [
        {"id": "db", "question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]})
    model = Anthropic([later, text("going on meanwhile")])
    person = Answerer(sock, name="person")
    argv, env = claude(agent, model, "-p", "set up storage", "--output-format", "json", "--mcp-config", str(config),
                       "--allowedTools", "mcp__user-questions__ask_user_question_later")
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["result"] == "going on meanwhile"
    assert any("the answer will arrive in this session" in r for r in last_results(model)), last_results(model)
    offer = person.expect("questions/offer", timeout=10)
    assert offer["params"]["request"]["questions"][0]["question"] == "Which database?"
    person.reply(offer, {"claim": True})
    assert person.expect("questions/withdraw", timeout=10)["params"]["ask"] == offer["params"]["ask"]


def test_its_changes_are_reviewed_when_it_stops_and_the_review_sends_it_back_to_work(agent, sock):
    agent.setup("claude-code", "--review-changes")
    for args in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q",
                                                 "--allow-empty", "-m", "first"]):
        subprocess.run(["git", *args], cwd=agent.work, check=True)
    write = tool("Write", {"file_path": str(agent.work / "cart.py"), "content": "def total(items):\n    return 0\n"})
    model = Anthropic([write, text("done"), text("fixed, as asked")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "review", "selected": [], "custom": "cart.py, line 2:\n  Sum the prices."})
    argv, env = claude(agent, model, "-p", "write the cart", "--output-format", "json", "--allowedTools", "Write")
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stderr
    q = asked["questions"][0]
    assert (q["question"], q["intent"]["kind"]) == ("Approve these changes?", "code-review")
    assert "+    return 0" in q["detail"] and "cart.py" in q["detail"], q["detail"]
    # Claude went on working with the review, and stopped for good once nothing changed.
    sent = json.dumps(model.main_requests()[-1])
    assert "Changes requested: these changes were not approved" in sent and "Sum the prices." in sent, sent[-3000:]
    assert json.loads(out.stdout)["result"] == "fixed, as asked"
