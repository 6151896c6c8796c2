"""MCP start-up, as an MCP client sees it: spawn the server, initialize, list tools,
close. `userq mcp` and the peer server mcp-feedback-enhanced 2.8.5 are measured by
the same client (the MCP Python SDK), the same steps, in the same run, alternating.
Prints medians and the ratio. Usage: python benches/mcp_startup.py [runs]"""

import os
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
USERQ = ROOT / "target" / "release" / "userq"
PEER = ROOT / ".tools" / "peer" / "bin" / "mcp-feedback-enhanced"


async def once(command, args):
    started = time.perf_counter()
    async with AsyncExitStack() as stack:
        read, write = await stack.enter_async_context(stdio_client(StdioServerParameters(command=str(command), args=args, env=dict(os.environ))))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        tools = await session.list_tools()
        elapsed = time.perf_counter() - started
    assert tools.tools, "the server lists tools"
    return elapsed


async def main(runs):
    servers = [("userq mcp", USERQ, ["mcp"])]
    if PEER.exists():
        servers.append(("mcp-feedback-enhanced 2.8.5", PEER, []))
    else:
        print(f"(peer not installed at {PEER}; pip install mcp-feedback-enhanced==2.8.5 into .tools/peer to compare)")
    times = {name: [] for name, _, _ in servers}
    for _ in range(runs):
        for name, command, args in servers:
            times[name].append(await once(command, args))
    for name, t in times.items():
        print(f"{name}: spawn + initialize + tools/list, median {statistics.median(t) * 1000:.1f} ms over {runs} runs (min {min(t) * 1000:.1f}, max {max(t) * 1000:.1f})")
    if len(times) == 2:
        a, b = (statistics.median(t) for t in times.values())
        print(f"ratio: the peer takes {b / a:.0f}x as long as userq mcp")


anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 15)
