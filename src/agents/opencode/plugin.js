// User Questions for OpenCode, written by `userq setup opencode` (and taken out by
// `userq setup opencode --remove`). What OpenCode would ask the person goes to User
// Questions through `userq hook opencode`, and the person's answer comes back to
// OpenCode. With no answer (no server running, a dismissal), nothing is given and
// OpenCode asks in its own prompt as before.
//
// One default export serves both versions: OpenCode 1 (1.18.29 and later) calls
// `server()`, OpenCode 2 reads `id` and calls `setup(ctx)`. Nothing here imports an
// OpenCode package, so neither version has to resolve the other's.
import { spawn } from "node:child_process";

const USERQ = __USERQ__;

/** Runs one program with `input` on its stdin: `done` is its stdout, `stop` ends it. */
function run(program, args, input) {
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "ignore"] });
  const done = new Promise((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", () => resolve(""));
    child.on("close", () => resolve(out));
  });
  child.stdin.on("error", () => {});
  child.stdin.end(input);
  return { done, stop: () => child.kill("SIGTERM") };
}

/** Hands one request to `userq hook opencode`; `decision` is what it decided, or null. */
function ask(request, asking, id) {
  const hook = run(USERQ, ["hook", "opencode"], JSON.stringify(request));
  asking.set(id, hook);
  return hook.done.then((out) => {
    asking.delete(id);
    try {
      return out.trim() ? JSON.parse(out) : null;
    } catch {
      return null;
    }
  });
}

/**
 * OpenCode 2. Its `evaluate` permission hook runs before OpenCode would show its own
 * prompt: a request it would ask about ("ask") is asked here first, and the person's
 * Allow or Deny (with the reason the agent reads) decides it. Its question tool makes
 * a form; the answer is given through OpenCode's own `opencode api`, as the server
 * plugin context has no form reply of its own. An answer in OpenCode first withdraws
 * the question here.
 */
async function setup(ctx) {
  const directory = ctx.location?.directory;
  const asking = new Map();
  let next = 0;
  // A host without one of these (an OpenCode 2 build before it) goes without that part,
  // never without the plugin: a plugin that throws here would stop OpenCode loading it.
  ctx.permission?.hook?.("evaluate", async (event) => {
    if (event.effect !== "ask") return;
    const { sessionID, action, resources, metadata } = event;
    const request = { hook_event_name: "permission.evaluate", sessionID, action, resources, metadata, directory };
    const decision = await ask(request, asking, `evaluate-${next++}`);
    if (decision?.effect === "allow" || decision?.effect === "deny") {
      event.effect = decision.effect;
      if (decision.message) event.message = decision.message;
    }
  });
  const controller = new AbortController();
  const forms = async () => {
    for await (const event of ctx.event?.subscribe?.({ signal: controller.signal }) ?? []) {
      const data = event.data ?? {};
      if (event.type === "form.created" && data.form?.metadata?.kind === "question") {
        answerForm(data.form, asking, directory).catch(() => {});
      } else if (event.type === "form.replied" || event.type === "form.cancelled") {
        asking.get(data.id)?.stop();
      }
    }
  };
  forms().catch(() => {});
  return () => {
    controller.abort();
    for (const hook of asking.values()) hook.stop();
  };
}

async function answerForm(form, asking, directory) {
  const decision = await ask({ ...form, hook_event_name: "form.created", directory }, asking, form.id);
  if (!decision) return;
  const path = `/api/session/${encodeURIComponent(form.sessionID)}/form/${encodeURIComponent(form.id)}/reply`;
  await run("opencode", ["api", "POST", path, "--data", JSON.stringify(decision)], "").done;
}

/**
 * OpenCode 1. Its plugin `permission.ask` hook is never called, so the plugin follows
 * the `permission.asked` and `question.asked` events and replies through the routes
 * OpenCode's own clients use (`/permission/{id}/reply` carries a Deny's reason; the
 * client's public permission method, a deprecated route, drops it).
 */
async function server({ client, directory }) {
  const asking = new Map();
  const post = (url, requestID, body) =>
    client._client.post({ url, path: { requestID }, body, headers: { "Content-Type": "application/json" } });
  return {
    event: async ({ event }) => {
      try {
        const id = event.properties?.id;
        const request = () => ({ ...event.properties, hook_event_name: event.type, directory });
        if (event.type === "permission.asked") {
          const decision = await ask(request(), asking, id);
          if (decision) await post("/permission/{requestID}/reply", id, decision);
        } else if (event.type === "question.asked") {
          const decision = await ask(request(), asking, id);
          if (decision) await post("/question/{requestID}/reply", id, decision);
        } else if (["permission.replied", "question.replied", "question.rejected"].includes(event.type)) {
          asking.get(event.properties.requestID)?.stop();
        }
      } catch {
        // Answered elsewhere meanwhile, or OpenCode is shutting down: its own prompt stands.
      }
    },
  };
}

export default { id: "user-questions", setup, server };
