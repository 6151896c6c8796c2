"""A small MCP server over stdio (JSON-RPC by hand, so the test sees every message)
with one tool, `deploy`, that asks the person for a form through the client
(`elicitation/create`) before it answers, and returns what came back as its result."""

import json
import sys

SCHEMA = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "title": "Region",
                   "oneOf": [{"const": "eu-1", "title": "Europe"}, {"const": "us-1", "title": "America"}]},
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 5, "default": 2},
        "canary": {"type": "boolean", "title": "Canary first"},
    },
    "required": ["region"],
}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    call = None
    for line in sys.stdin:
        if not line.strip():
            continue
        m = json.loads(line)
        method, mid = m.get("method"), m.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": m["params"].get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}}, "serverInfo": {"name": "forms", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{
                "name": "deploy", "description": "Deploys, after asking where",
                "inputSchema": {"type": "object", "properties": {}}}]}})
        elif method == "tools/call":
            call = mid
            send({"jsonrpc": "2.0", "id": "form-1", "method": "elicitation/create",
                  "params": {"mode": "form", "message": "Where should this go?", "requestedSchema": SCHEMA}})
        elif mid == "form-1" and method is None:
            got = m.get("result", m.get("error"))
            send({"jsonrpc": "2.0", "id": call, "result": {
                "content": [{"type": "text", "text": "FORM " + json.dumps(got, sort_keys=True)}]}})
        elif method is not None and mid is not None:
            # Anything else asked of us (a newer protocol's discovery probe among them)
            # is a method this server does not have.
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "no method " + method}})


main()
