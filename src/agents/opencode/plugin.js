// User Questions for OpenCode, written by `userq setup opencode` (and taken out by
// `userq setup opencode --remove`). OpenCode's permission requests and its question
// tool's questions go to User Questions through `userq hook opencode`; the person's
// answer comes back through OpenCode's own API. With no answer (no server running, a
// dismissal), nothing is sent and OpenCode asks in its own prompt as before; an
// answer given there first withdraws the question from User Questions. OpenCode
// takes every export of this file for a plugin, so it exports only the plugin.
import { spawn } from "node:child_process";

const USERQ = __USERQ__;

export const UserQuestions = async ({ client, directory }) => {
  /** The hooks still asking, by OpenCode's request id. */
  const asking = new Map();

  const post = (url, requestID, body) =>
    client._client.post({ url, path: { requestID }, body, headers: { "Content-Type": "application/json" } });

  /** What `userq hook opencode` decided about one event, or null for no decision. */
  const decide = (event) =>
    new Promise((resolve) => {
      const id = event.properties.id;
      const hook = spawn(USERQ, ["hook", "opencode"], { stdio: ["pipe", "pipe", "ignore"] });
      asking.set(id, hook);
      let out = "";
      hook.stdout.on("data", (chunk) => (out += chunk));
      hook.on("error", () => resolve(null));
      hook.on("close", () => {
        asking.delete(id);
        try {
          resolve(out.trim() ? JSON.parse(out) : null);
        } catch {
          resolve(null);
        }
      });
      hook.stdin.on("error", () => {});
      hook.stdin.end(JSON.stringify({ ...event.properties, hook_event_name: event.type, directory }));
    });

  return {
    event: async ({ event }) => {
      try {
        const id = event.properties?.id;
        if (event.type === "permission.asked") {
          const decision = await decide(event);
          if (decision) await post("/permission/{requestID}/reply", id, decision);
        } else if (event.type === "question.asked") {
          const decision = await decide(event);
          if (decision) await post("/question/{requestID}/reply", id, decision);
        } else if (["permission.replied", "question.replied", "question.rejected"].includes(event.type)) {
          asking.get(event.properties.requestID)?.kill("SIGTERM");
        }
      } catch {
        // Answered elsewhere meanwhile, or OpenCode is shutting down: its own prompt stands.
      }
    },
  };
};
