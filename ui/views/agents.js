// @ts-check
// The Agents view: the agents installed here with their versions, whether each one's
// questions come here, and Connect, Update or Disconnect. A click first shows what
// will change (the words of `userq setup --dry-run`), then makes the change on
// Make these changes. It owns one piece of state: `shown`, the number of the latest
// load, so a slow reading of the agents never paints over a newer one.

import { commands } from "../bridge.js";
import { byId, el } from "../dom.js";
import { tr } from "../text.js";

let shown = 0;

/** @type {Record<AgentAction, string>} */
const ACTION_LABEL = {
  connect: "window-agents-connect",
  update: "window-agents-update",
  disconnect: "window-agents-disconnect",
};

async function load() {
  const mine = ++shown;
  /** @type {AgentsView} */
  let found;
  try {
    found = await commands.listAgents();
  } catch (e) {
    if (mine === shown) problem(/** @type {UiError} */ (e).message);
    return;
  }
  if (mine !== shown) return;
  problem(found.problem);
  byId("agents-none").hidden = found.agents.length > 0;
  byId("agents-known").textContent = found.knownLabel;
  byId("agents-list").replaceChildren(
    ...found.agents.map((a) =>
      el(
        "li",
        { class: a.connected ? "agent-row connected" : "agent-row", "data-agent": a.name },
        el(
          "div",
          { class: "about" },
          el("span", { class: "name", text: a.displayName }),
          el("span", { class: "version", text: a.versionLabel }),
          el("span", { class: "state", text: a.stateLabel }),
        ),
        el("button", {
          type: "button",
          class: a.action === "disconnect" ? "option-button disconnect" : "option-button connect",
          text: tr(ACTION_LABEL[a.action]),
          disabled: Boolean(found.problem),
          onclick: () => preview(a.name, a.action !== "disconnect"),
        }),
      ),
    ),
  );
}

/** @param {string | null} message */
function problem(message) {
  const line = byId("agents-problem");
  line.textContent = message || "";
  line.hidden = !message;
}

/** Shows what connecting (or disconnecting) would change, with the button that does it. */
/** @param {string} name @param {boolean} connect */
async function preview(name, connect) {
  const box = byId("agents-changes");
  /** @type {ChangesView} */
  let changes;
  try {
    changes = await commands.agentChanges(name, connect);
  } catch (e) {
    box.replaceChildren(el("p", { class: "notice", text: /** @type {UiError} */ (e).message }));
    box.hidden = false;
    return;
  }
  const lines = changes.nothing ? [...changes.lines, tr("window-agents-nothing")] : changes.lines;
  box.replaceChildren(
    el("ul", { class: "changes" }, ...lines.map((l) => el("li", { text: l }))),
    el(
      "div",
      { class: "actions" },
      el("button", {
        type: "button",
        class: "primary apply",
        text: tr("window-agents-apply"),
        disabled: changes.nothing,
        onclick: () => apply(name, connect),
      }),
      el("button", {
        type: "button",
        class: "cancel",
        text: tr("window-agents-cancel"),
        onclick: () => (box.hidden = true),
      }),
    ),
  );
  box.hidden = false;
}

/** @param {string} name @param {boolean} connect */
async function apply(name, connect) {
  const box = byId("agents-changes");
  try {
    const made = await commands.connectAgent(name, connect);
    box.replaceChildren(el("ul", { class: "changes done" }, ...made.lines.map((l) => el("li", { text: l }))));
  } catch (e) {
    box.replaceChildren(el("p", { class: "notice", text: /** @type {UiError} */ (e).message }));
  }
  await load();
}

/** The view, for the registry. */
export const view = {
  name: "agents",
  show: () => {
    byId("agents-changes").hidden = true;
    return load();
  },
};
