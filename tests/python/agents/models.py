"""Scripted models for the agents' real CLIs: each speaks the API one CLI calls
(Anthropic Messages for Claude Code, OpenAI Responses for Codex, Gemini's
streamGenerateContent for Gemini CLI), answers the agent's main turns from a script,
and records every request so a test can read what the agent sent back.

A script is a list of steps, one per turn of the agent's main loop: `tool(name, args)`
calls a tool, `text(words)` ends the turn. The turn a request is on is counted from the
conversation it carries (the model turns already in it), so retries and side requests
never shift the script. Side requests (titles, summaries, reviews) get a short answer.
"""

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def tool(name, args, say=None):
    """A tool call; `say`: the text the model writes before it, in the same message."""
    return {"tool": name, "args": args, **({"say": say} if say else {})}


def text(words):
    return {"text": words}


class ScriptedModel:
    """An HTTP server on a loopback port, in a thread of the test."""

    def __init__(self, script):
        self.script = script
        self.requests = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_HEAD(self):
                self.reply_json({})

            def do_GET(self):
                self.reply_json(model.get(self.path))

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                with model.lock:
                    model.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    model.changed.notify_all()
                model.post(self, self.path, body)

            def reply_json(self, obj, code=200):
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            def reply_events(self, events, named=True):
                data = b"".join(
                    (("event: %s\n" % e.get("type", "message")) if named else "").encode()
                    + ("data: %s\n\n" % json.dumps(e)).encode()
                    for e in events
                )
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def next_step(self, body, headers):
        """The script's step for a main request (counted from the model turns it
        carries); a short text for anything else."""
        if not self.is_main(body, headers):
            return text("ok")
        step = self.script[min(self.turns(body), len(self.script) - 1)]
        return step(body) if callable(step) else step

    def get(self, path):
        return {}

    def main_requests(self):
        with self.lock:
            return [r["body"] for r in self.requests if self.is_main(r["body"], r["headers"])]

    def wait_for(self, predicate, timeout=60):
        """The first main request `predicate` accepts, waiting for it to come."""
        with self.lock:
            found = []

            def seen():
                found[:] = [
                    r["body"] for r in self.requests if self.is_main(r["body"], r["headers"]) and predicate(r["body"])
                ]
                return bool(found)

            if not self.changed.wait_for(seen, timeout):
                raise AssertionError("the agent never sent the request awaited")
            return found[0]

    def is_main(self, body, headers):
        raise NotImplementedError


class Anthropic(ScriptedModel):
    """Anthropic Messages (`ANTHROPIC_BASE_URL`), streamed or not."""

    def is_main(self, body, headers):
        return bool(body.get("tools")) and "messages" in body

    def turns(self, body):
        return sum(1 for m in body["messages"] if m.get("role") == "assistant")

    def get(self, path):
        if path.startswith("/v1/models"):
            return {"data": [], "has_more": False, "first_id": None, "last_id": None}
        return {}

    def post(self, h, path, body):
        path = path.split("?")[0]
        if path.endswith("/count_tokens"):
            return h.reply_json({"input_tokens": 100})
        if not path.endswith("/v1/messages"):
            return h.reply_json({})
        step = self.next_step(body, h.headers)
        if "tool" in step:
            content = [{"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": step["tool"],
                        "input": step["args"]}]
            if "say" in step:
                content.insert(0, {"type": "text", "text": step["say"]})
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": step["text"]}]
            stop = "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5}
        message = {"id": "msg_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant",
                   "model": body.get("model", "claude"), "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            return h.reply_json(dict(message, content=content, stop_reason=stop))
        events = [{"type": "message_start", "message": dict(message, content=[], stop_reason=None)}]
        for i, block in enumerate(content):
            if block["type"] == "text":
                events += [
                    {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                    {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": block["text"]}},
                ]
            else:
                events += [
                    {"type": "content_block_start", "index": i,
                     "content_block": dict(block, input={})},
                    {"type": "content_block_delta", "index": i,
                     "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}},
                ]
            events.append({"type": "content_block_stop", "index": i})
        events += [
            {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]
        h.reply_events(events)


def tool_results(body):
    """The tool results of an Anthropic request's last user message."""
    last = [m for m in body["messages"] if m.get("role") == "user"][-1]
    content = last["content"] if isinstance(last["content"], list) else []
    return [b for b in content if b.get("type") == "tool_result"]


def result_text(block):
    content = block.get("content")
    if isinstance(content, list):
        return "\n".join(c.get("text", "") for c in content)
    return content or ""


class Responses(ScriptedModel):
    """OpenAI Responses (`POST {base_url}/responses`, streamed), as Codex calls it.
    Codex's automatic reviewer (`turn_trigger` `guardian_review`) asks the same
    model for a verdict: it always hears "deny", so the test's person decides."""

    def is_main(self, body, headers):
        return "input" in body and "guardian_review" not in headers.get("x-codex-turn-metadata", "")

    def turns(self, body):
        return sum(1 for i in body["input"] if i.get("type") in ("function_call", "custom_tool_call"))

    def post(self, h, path, body):
        if not path.split("?")[0].endswith("/responses"):
            return h.reply_json({})
        if not self.is_main(body, h.headers):
            verdict = {"outcome": "deny", "risk_level": "high", "user_authorization": "unknown",
                       "rationale": "the scripted reviewer denies everything"}
            item = {"type": "message", "role": "assistant", "id": "msg_review",
                    "content": [{"type": "output_text", "text": json.dumps(verdict)}]}
        else:
            turn = self.turns(body)
            step = self.next_step(body, h.headers)
            said = step.get("say", step.get("text"))
            item = said and {"type": "message", "role": "assistant", "id": "msg_%d" % turn,
                             "content": [{"type": "output_text", "text": said}]}
            if "tool" in step:
                call = {"type": "function_call", "id": "fc_%d" % turn, "call_id": "call_%d" % turn,
                        "name": step["tool"], "arguments": json.dumps(step["args"])}
                item = [item, call] if item else call
        items = item if isinstance(item, list) else [item]
        h.reply_events([
            *({"type": "response.output_item.done", "item": i} for i in items),
            {"type": "response.completed", "response": {"id": "resp_" + uuid.uuid4().hex[:12]}},
        ])


def function_outputs(body):
    """The tool outputs a Responses request carries, in order."""
    return [i.get("output") for i in body["input"] if i.get("type") in ("function_call_output", "custom_tool_call_output")]


class Gemini(ScriptedModel):
    """Gemini's `models/<model>:streamGenerateContent?alt=sse` (`GOOGLE_GEMINI_BASE_URL`),
    as Gemini CLI calls it; other calls (`generateContent`, `countTokens`) get a short
    answer."""

    def is_main(self, body, headers):
        return "contents" in body and bool(body.get("tools"))

    def turns(self, body):
        return sum(1 for c in body["contents"] if c.get("role") == "model")

    def post(self, h, path, body):
        route = path.split("?")[0]
        if route.endswith(":countTokens"):
            return h.reply_json({"totalTokens": 10})
        step = self.next_step(body, h.headers)
        if "tool" in step:
            part = {"functionCall": {"name": step["tool"], "args": step["args"]}}
        else:
            part = {"text": step["text"]}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
        if route.endswith(":streamGenerateContent"):
            return h.reply_events([chunk], named=False)
        h.reply_json(chunk)


def function_responses(body):
    """The function responses of a Gemini request's last content."""
    return [p["functionResponse"] for p in body["contents"][-1].get("parts", []) if "functionResponse" in p]


class ChatCompletions(ScriptedModel):
    """OpenAI chat completions (`POST {base}/chat/completions`, streamed or not), as
    GitHub Copilot CLI calls a provider of the person's own."""

    def is_main(self, body, headers):
        return "messages" in body and bool(body.get("tools"))

    def turns(self, body):
        return sum(1 for m in body["messages"] if m.get("role") == "assistant")

    def get(self, path):
        return {"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "tests"}]}

    def post(self, h, path, body):
        if not path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            return h.reply_json({"error": {"message": "only chat/completions"}}, 404)
        step = self.next_step(body, h.headers)
        if "tool" in step:
            call = {"index": 0, "id": "call_%s" % uuid.uuid4().hex[:8], "type": "function",
                    "function": {"name": step["tool"], "arguments": json.dumps(step["args"])}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": step["text"]}, "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        head = {"id": "chatcmpl-" + uuid.uuid4().hex[:8], "created": 0, "model": body.get("model", "scripted")}
        if not body.get("stream"):
            return h.reply_json(dict(head, object="chat.completion", usage=usage,
                                     choices=[{"index": 0, "message": message, "finish_reason": finish}]))
        delta = {k: v for k, v in message.items() if v is not None}
        chunks = [
            dict(head, object="chat.completion.chunk", choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
            dict(head, object="chat.completion.chunk", choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
            dict(head, object="chat.completion.chunk", choices=[], usage=usage),
        ]
        data = b"".join(("data: %s\n\n" % json.dumps(c)).encode() for c in chunks) + b"data: [DONE]\n\n"
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)


def tool_messages(body):
    """The tool results a chat completions request carries after the last assistant turn."""
    messages = body["messages"]
    last = max(i for i, m in enumerate(messages) if m.get("role") == "assistant")
    return [m.get("content") for m in messages[last + 1:] if m.get("role") == "tool"]
