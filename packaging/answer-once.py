#!/usr/bin/env python3
"""Answers one question on a User Questions socket with the label given, then exits.

`answer-once.py SOCKET LABEL READY_FILE`: registers as an answerer (PROTOCOL.md,
"Answering"), creates READY_FILE once registered, answers the first offer's first
question with LABEL. The package test uses it to stand in for a person, from outside
the Debian root the package is installed in."""
import json
import socket
import sys

path, label, ready = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(path)
f = s.makefile("rwb")


def send(m):
    f.write(json.dumps(m).encode() + b"\n")
    f.flush()


def read():
    line = f.readline()
    if not line:
        sys.exit("answer-once: the server closed the connection")
    return json.loads(line)


send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"protocolVersion": 1, "client": {"name": "package-test", "version": "1"}}})
send({"jsonrpc": "2.0", "id": 2, "method": "answerers/register", "params": {"name": "package-test", "scope": "any"}})
for want in (1, 2):
    reply = read()
    if "error" in reply:
        sys.exit(f"answer-once: {reply['error']}")
open(ready, "w").close()
while True:
    m = read()
    if m.get("method") == "questions/offer":
        q = m["params"]["request"]["questions"][0]
        send({"jsonrpc": "2.0", "id": m["id"],
              "result": {"answer": {"answers": [{"id": q["id"], "selected": [label]}]}}})
        print(f"answered {q['question']!r} with {label!r}")
        break
f.close()
