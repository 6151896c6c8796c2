"""Claude Code's channel, as its client sees it, against the blocking tool in the same
run: `userq serve` on a socket of its own, an answerer that answers each offer at once,
and `userq mcp` spoken to over the MCP Python SDK's stdio transport. For each of
`ask_user_question` (blocking) and `ask_user_question_later`: the tool call's return;
for the later one also tool call → the `notifications/claude/channel` message with the
answer. Prints medians, p95 and the ratio. Usage: python benches/channel_figures.py [runs]"""

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage
from mcp.types import jsonrpc_message_adapter

ROOT = Path(__file__).resolve().parents[1]
USERQ = Path(os.environ.get("USERQ_BIN", ROOT / "target" / "release" / "userq"))
QUESTION = {"questions": [{"id": "db", "question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]}


def answerer(path):
    """Answers every offer at once with its first option."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(str(path))
    f = s.makefile("rwb")
    send = lambda m: (f.write(json.dumps(m).encode() + b"\n"), f.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1, "client": {"name": "bench", "version": "1"}}})
    send({"jsonrpc": "2.0", "id": 2, "method": "answerers/register", "params": {"name": "bench", "scope": "any"}})
    for line in f:
        m = json.loads(line)
        if m.get("method") == "questions/offer":
            q = m["params"]["request"]["questions"][0]
            send({"jsonrpc": "2.0", "id": m["id"], "result": {"answer": {"answers": [{"id": q["id"], "selected": [q["options"][0]["label"]]}]}}})


async def main(runs):
    tmp = Path(tempfile.mkdtemp())
    sock = tmp / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(tmp / "data"), USERQ_CONFIG_DIR=str(tmp / "config"))
    server = subprocess.Popen([USERQ, "serve"], env=env, stderr=subprocess.DEVNULL)
    while not sock.exists():
        time.sleep(0.01)
    time.sleep(0.2)
    threading.Thread(target=answerer, args=(sock,), daemon=True).start()
    blocking, returned, delivered = [], [], []
    try:
        async with AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(stdio_client(StdioServerParameters(command=str(USERQ), args=["mcp"], env=env)))
            n = 0

            async def send(message):
                await write.send(SessionMessage(jsonrpc_message_adapter.validate_python({"jsonrpc": "2.0", **message})))

            async def until(check):
                while True:
                    m = jsonrpc_message_adapter.dump_python((await read.receive()).message, by_alias=True, exclude_none=True)
                    if check(m):
                        return m

            async def call(method, params):
                nonlocal n
                n += 1
                mine = n
                await send({"id": mine, "method": method, "params": params})
                return await until(lambda m: m.get("id") == mine)

            await call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-code", "version": "2.1.332"}})
            await send({"method": "notifications/initialized"})
            for _ in range(runs):
                started = time.perf_counter()
                await call("tools/call", {"name": "ask_user_question", "arguments": QUESTION})
                blocking.append(time.perf_counter() - started)
                started = time.perf_counter()
                await call("tools/call", {"name": "ask_user_question_later", "arguments": QUESTION})
                returned.append(time.perf_counter() - started)
                await until(lambda m: m.get("method") == "notifications/claude/channel")
                delivered.append(time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait(10)

    def said(name, t):
        p95 = statistics.quantiles(t, n=20)[-1]
        print(f"{name}: median {statistics.median(t) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms over {runs} (min {min(t) * 1000:.2f})")

    said("ask_user_question (blocking), call → answer", blocking)
    said("ask_user_question_later, call → its return", returned)
    said("ask_user_question_later, call → the answer as a channel message", delivered)
    print(f"ratio: the later call returns in {statistics.median(returned) / statistics.median(blocking):.2f}x the blocking call's time; "
          f"its answer arrives in {statistics.median(delivered) / statistics.median(blocking):.2f}x")


anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 200)
