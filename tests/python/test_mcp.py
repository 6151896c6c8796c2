"""`userq mcp` driven by the MCP Python SDK, a real MCP client nobody here wrote."""

import os
import subprocess

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from conftest import USERQ

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def params(sock, *args, cwd=None):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    return StdioServerParameters(command=str(USERQ), args=["mcp", *args], env=env, cwd=cwd)


async def session_for(stack, sock, *args):
    read, write = await stack.enter_async_context(stdio_client(params(sock, *args)))
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    return session


def text(result):
    assert len(result.content) == 1
    return result.content[0].text


async def test_lists_both_tools_with_the_reference_schema(sock):
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"ask_user_question", "ask_user_question_later", "review_plan", "review_changes"}
        schema = tools["ask_user_question"].input_schema
        assert schema["required"] == ["questions"]
        item = schema["properties"]["questions"]["items"]
        assert set(item["properties"]) == {"id", "question", "header", "detail", "options", "multi_select", "pick"}
        assert item["properties"]["pick"]["required"] == ["of", "root"]
        assert set(item["properties"]["options"]["items"]["properties"]) == {"label", "description"}
        assert tools["review_plan"].input_schema["required"] == ["plan"]


async def test_ask_user_question_returns_the_compact_answer(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock, "--agent-id", "claude-test")
        async with anyio.create_task_group() as tg:
            results = []

            async def ask():
                results.append(await session.call_tool("ask_user_question", {"questions": [
                    {"id": "pkg", "question": "Which package manager?", "multi_select": True,
                     "options": [{"label": "npm"}, {"label": "pnpm", "description": "fast"}]}]}))

            tg.start_soon(ask)
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            request = offer["params"]["request"]
            assert request["agent"]["id"] == "claude-test"
            assert request["agent"]["delegationDepth"] == 0
            assert request["agent"]["client"].startswith("userq-mcp (")
            assert request["questions"][0]["multiSelect"] is True
            a.reply(offer, {"answer": {"answers": [{"id": "pkg", "selected": ["pnpm"]}]}})
        result = results[0]
        assert not result.is_error
        assert text(result) == '{"answers":[{"id":"pkg","selected":["pnpm"]}]}'


async def test_a_model_asks_the_person_to_pick_a_file(sock, answerer, tmp_path):
    from contextlib import AsyncExitStack

    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "app.toml").write_text("")
    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        pick = {"of": "files", "root": str(tmp_path), "globs": ["*.toml"]}
        r = await session.call_tool("ask_user_question", {"questions": [
            {"id": "cfg", "question": "Which config?", "pick": {**pick, "root": str(tmp_path / "gone")}}]})
        assert r.is_error and text(r) == f'Error: questions[0].pick.root "{tmp_path / "gone"}" does not exist'
        results = []
        async with anyio.create_task_group() as tg:
            async def ask():
                results.append(await session.call_tool("ask_user_question", {"questions": [
                    {"id": "cfg", "question": "Which config?", "pick": pick}]}))

            tg.start_soon(ask)
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            assert offer["params"]["request"]["questions"][0]["pick"] == pick
            a.reply(offer, {"answer": {"answers": [{"id": "cfg", "selected": ["config/app.toml"]}]}})
        assert text(results[0]) == '{"answers":[{"id":"cfg","selected":["config/app.toml"]}]}'


async def test_errors_are_tool_results_with_the_exact_texts(sock):
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        r = await session.call_tool("ask_user_question", {"questions": [{"id": "q", "question": "Anyone?"}]})
        assert r.is_error and text(r) == "Error: no user-questions answerer accepted the request"
        r = await session.call_tool("ask_user_question", {"questions": []})
        assert r.is_error and text(r) == "Error: ask_user_question requires at least one question"
        r = await session.call_tool("ask_user_question", {"questions": [{"question": "no id"}]})
        assert r.is_error and text(r) == "Error: questions[0].id is missing"


async def test_review_plan_and_the_client_name_as_agent(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        results = []
        async with anyio.create_task_group() as tg:
            async def review():
                results.append(await session.call_tool("review_plan", {"plan": "# Plan\n\n- one\n- two"}))

            tg.start_soon(review)
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            q = offer["params"]["request"]["questions"][0]
            assert q["intent"] == {"kind": "plan-review", "approve": "Approve"}
            assert q["detail"] == "# Plan\n\n- one\n- two"
            assert offer["params"]["request"]["agent"]["id"].startswith("mcp")
            a.reply(offer, {"answer": {"answers": [{"id": "plan", "selected": ["Revise"], "custom": "add tests"}]}})
        assert text(results[0]) == '{"answers":[{"id":"plan","selected":[],"custom":"add tests"}]}'


async def test_an_mcp_cancellation_withdraws_the_question(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        async with anyio.create_task_group() as tg:
            tg.start_soon(session.call_tool, "ask_user_question", {"questions": [{"id": "q", "question": "Wait?"}]})
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            a.reply(offer, {"claim": True})
            tg.cancel_scope.cancel()
        withdraw = await anyio.to_thread.run_sync(a.expect, "questions/withdraw")
        assert withdraw["params"] == {"ask": offer["params"]["ask"], "reason": "aborted"}


async def test_a_long_wait_reports_progress_to_a_call_with_a_progress_token(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    progress = []
    heard = anyio.Event()

    async def on_progress(value, total, message):
        progress.append((value, message))
        heard.set()

    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        results = []
        async with anyio.create_task_group() as tg:
            async def ask():
                results.append(await session.call_tool(
                    "ask_user_question", {"questions": [{"id": "q", "question": "Still there?"}]},
                    progress_callback=on_progress))

            tg.start_soon(ask)
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            a.reply(offer, {"claim": True})
            with anyio.fail_after(15):  # a report comes every 5 seconds while the person is away
                await heard.wait()
            a.call("questions/answer", {"ask": offer["params"]["ask"],
                                        "answer": {"answers": [{"id": "q", "selected": [], "custom": "yes"}]}})
        assert progress[0] == (1, "waiting for the user to answer")
        assert text(results[0]) == '{"answers":[{"id":"q","selected":[],"custom":"yes"}]}'


async def test_review_changes_asks_about_a_diff_and_returns_the_review(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        session = await session_for(stack, sock)
        results = []
        async with anyio.create_task_group() as tg:
            async def review():
                results.append(await session.call_tool("review_changes", {"diff": "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"}))

            tg.start_soon(review)
            offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
            q = offer["params"]["request"]["questions"][0]
            assert q["intent"] == {"kind": "code-review", "approve": "Approve", "diff": "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"}
            assert q["detail"] == "```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```"
            a.reply(offer, {"answer": {"answers": [{"id": "review", "selected": [], "custom": "x, line 1:\n  keep a"}]}})
        assert text(results[0]) == '{"answers":[{"id":"review","selected":[],"custom":"x, line 1:\\n  keep a"}]}'
        r = await session.call_tool("review_changes", {"diff": " "})
        assert r.is_error and text(r) == "Error: there are no changes to review"


class Channel:
    """Claude Code's side of a channel, spoken over the MCP SDK's own stdio transport:
    initialize, tool calls, and the channel notifications its channels reference names
    (`notifications/claude/channel`, `.../permission_request`, `.../permission`), which
    the SDK's typed session does not carry."""

    def __init__(self, read, write):
        self.read, self.write, self.n = read, write, 0

    async def send(self, message):
        from mcp.shared.message import SessionMessage
        from mcp.types import jsonrpc_message_adapter
        await self.write.send(SessionMessage(jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **message})))

    async def next(self, timeout=30):
        from mcp.types import jsonrpc_message_adapter
        with anyio.fail_after(timeout):
            message = await self.read.receive()
        return jsonrpc_message_adapter.dump_python(message.message, by_alias=True, exclude_none=True)

    async def call(self, method, params):
        self.n += 1
        await self.send({"id": self.n, "method": method, "params": params})
        reply = await self.next()
        assert reply.get("id") == self.n, reply
        return reply["result"]

    @classmethod
    async def open(cls, stack, sock, version="2025-06-18", cwd=None):
        read, write = await stack.enter_async_context(
            stdio_client(params(sock, "--agent-id", "claude-channel", cwd=cwd)))
        channel = cls(read, write)
        init = await channel.call("initialize", {"protocolVersion": version, "capabilities": {},
                                                 "clientInfo": {"name": "claude-code", "version": "2.1.332"}})
        await channel.send({"method": "notifications/initialized"})
        return channel, init


async def test_it_declares_itself_a_channel_with_approval_prompts(sock):
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        # Claude Code 2.1.332 offers the stateless revision first.
        _, init = await Channel.open(stack, sock, version="2026-07-28")
        assert init["capabilities"]["experimental"] == {"claude/channel": {}, "claude/channel/permission": {}}
        # Claude Code puts a channel's instructions in the system prompt: they say what arrives.
        assert 'ask_user_question_later' in init["instructions"]
        assert '<channel source="user-questions"' in init["instructions"]
        # Over it Claude Code loads no channel: this server answers with the one before it.
        assert init["protocolVersion"] == "2025-11-25"


async def test_a_question_left_for_later_returns_at_once_and_its_answer_arrives_as_a_message(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        channel, _ = await Channel.open(stack, sock)
        result = await channel.call("tools/call", {"name": "ask_user_question_later", "arguments": {"questions": [
            {"id": "db", "question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]}})
        # It returned before anyone answered.
        assert not result.get("isError"), result
        assert "db" in result["content"][0]["text"] and "channel message" in result["content"][0]["text"]
        offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
        assert offer["params"]["request"]["agent"]["id"] == "claude-channel"
        a.reply(offer, {"answer": {"answers": [{"id": "db", "selected": ["SQLite"]}]}})
        message = await channel.next()
        assert message["method"] == "notifications/claude/channel"
        assert message["params"]["meta"] == {"questions": "db"}
        content = message["params"]["content"]
        assert "Which database?" in content and '{"answers":[{"id":"db","selected":["SQLite"]}]}' in content


async def test_a_question_left_for_later_is_withdrawn_when_the_session_ends(sock, answerer):
    from contextlib import AsyncExitStack

    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        channel, _ = await Channel.open(stack, sock)
        await channel.call("tools/call", {"name": "ask_user_question_later",
                                          "arguments": {"questions": [{"id": "q", "question": "Later?"}]}})
        offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
        a.reply(offer, {"claim": True})
    withdrawn = await anyio.to_thread.run_sync(a.expect, "questions/withdraw")
    assert withdrawn["params"]["ask"] == offer["params"]["ask"]


async def test_an_approval_prompt_is_asked_here_and_the_verdict_goes_back(sock, answerer, tmp_path):
    from contextlib import AsyncExitStack

    # Claude Code starts the server in the folder it works in: a repository's subfolder.
    subprocess.run(["git", "init", "-q", "-b", "release", str(tmp_path / "shop")], check=True)
    folder = tmp_path / "shop" / "web"
    folder.mkdir()
    a = answerer(scope="agents")
    async with AsyncExitStack() as stack:
        channel, _ = await Channel.open(stack, sock, cwd=folder)
        # As Claude Code 2.1.332 sends it (its CHANNEL_PERMISSION_REQUEST_METHOD).
        await channel.send({"method": "notifications/claude/channel/permission_request", "params": {
            "request_id": "kqwzt", "tool_name": "Bash", "description": "Remove the build folder",
            "input_preview": '{"command":"rm -rf build","description":"Remove the build folder"}'}})
        offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
        q = offer["params"]["request"]["questions"][0]
        assert (q["question"], q["detail"]) == ("Run this command?", "```sh\nrm -rf build\n```")
        # Where it comes from, and the call's own words beside the command, not in it.
        assert offer["params"]["request"]["context"] == {
            "project": str(folder), "root": str(tmp_path / "shop"), "branch": "release", "source": "Claude Code",
            "description": "Remove the build folder"}
        assert [o["label"] for o in q["options"]] == ["Allow", "Deny"]
        a.reply(offer, {"answer": {"answers": [{"id": "permission", "selected": ["Deny"]}]}})
        verdict = await channel.next()
        assert verdict == {"jsonrpc": "2.0", "method": "notifications/claude/channel/permission",
                           "params": {"request_id": "kqwzt", "behavior": "deny"}}

        # A preview cut short is shown as it came; Allow allows.
        await channel.send({"method": "notifications/claude/channel/permission_request", "params": {
            "request_id": "mbvcx", "tool_name": "mcp__db__drop", "description": "",
            "input_preview": '{"table": "users", "cascade": tr…'}})
        offer = await anyio.to_thread.run_sync(a.expect, "questions/offer")
        assert "users" in offer["params"]["request"]["questions"][0]["detail"]
        assert "description" not in offer["params"]["request"]["context"]
        a.reply(offer, {"answer": {"answers": [{"id": "permission", "selected": ["Allow"]}]}})
        verdict = await channel.next()
        assert verdict["params"] == {"request_id": "mbvcx", "behavior": "allow"}
