// OpenCode 2's plugin host, as far as the plugin setup writes uses it, for a machine
// whose registry has no OpenCode 2. The shapes are OpenCode's own documentation
// (anomalyco/opencode, services/www/src/docs/content/build/plugins/index.mdx, the v2
// plugin reference: a default export `{ id, setup(ctx) }`; `ctx.location.directory`;
// `ctx.permission.hook("evaluate", cb)` with a `PermissionEvaluation` whose `effect`
// and `message` the callback may change; `ctx.event.subscribe({ signal })` yielding
// `{ type, data }`) and its question tool (packages/core/src/tool/plugin/question.ts:
// a `form.created` event). Usage: node opencode2_host.mjs PLUGIN DIRECTORY [--bare]
// (--bare: a context with no permission and no event domain, as a build without them
// would give); one JSON
// command per stdin line, one JSON result per stdout line:
//   {"evaluate": PermissionEvaluation} -> the evaluation after the hooks ran
//   {"event": {type, data}}            -> {"sent": type}
//   {"close": true}                    -> {"closed": true} once setup's cleanup ran
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [plugin, directory, bare] = process.argv.slice(2);
const definition = (await import(pathToFileURL(plugin).href)).default;
if (typeof definition?.id !== "string" || typeof definition?.setup !== "function") {
  // OpenCode 2's own words for a plugin it cannot load.
  console.log(JSON.stringify({ error: "The plugin must export a default definition with an identifier and an effect or setting function." }));
  process.exit(1);
}

const evaluate = [];
const waiting = [];
const queued = [];
const ctx = {
  location: { directory, project: { id: "project" } },
  permission: { hook: (name, callback) => name === "evaluate" && evaluate.push(callback) },
  event: {
    subscribe: ({ signal } = {}) => ({
      async *[Symbol.asyncIterator]() {
        while (!signal?.aborted) {
          yield queued.length ? queued.shift() : await new Promise((resolve) => waiting.push(resolve));
        }
      },
    }),
  },
};
if (bare === "--bare") {
  delete ctx.permission;
  delete ctx.event;
}
const cleanup = await definition.setup(ctx);
console.log(JSON.stringify({ loaded: definition.id }));

const say = (value) => console.log(JSON.stringify(value));
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.evaluate) {
    // Each command runs on its own, as OpenCode evaluates requests side by side.
    (async () => {
      const event = { ...command.evaluate };
      for (const hook of evaluate) await hook(event);
      say({ evaluated: event });
    })();
  } else if (command.event) {
    const resolve = waiting.shift();
    resolve ? resolve(command.event) : queued.push(command.event);
    say({ sent: command.event.type });
  } else if (command.close) {
    if (typeof cleanup === "function") await cleanup();
    say({ closed: true });
    process.exit(0);
  }
}
