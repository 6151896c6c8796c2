// @ts-check
// The Remembered view: the rules that answer at once, with their uses; each can be
// forgotten. It owns no state: the list is read again each time it is shown.

import { commands } from "../bridge.js";
import { byId, el } from "../dom.js";
import { tr } from "../text.js";

async function loadRules() {
  /** @type {RuleView[]} */
  const rules = await commands.listRules();
  const list = byId("rules-list");
  list.replaceChildren(
    ...rules.map((r) =>
      el(
        "li",
        { class: "rule" },
        el("p", { class: "text", text: r.question }),
        el("p", { class: "outcome", text: `→ ${r.answer}` }),
        el(
          "p",
          { class: "origin" },
          el("span", { class: "source", text: r.clientLabel }),
          el("span", { class: "uses", text: r.usesLabel }),
          el("button", {
            type: "button",
            class: "dismiss",
            text: tr("window-rules-forget"),
            onclick: () => commands.removeRule(r.id).then(loadRules, loadRules),
          }),
        ),
      ),
    ),
  );
  byId("rules-empty").hidden = rules.length > 0;
}

/** The view, for the registry. */
export const view = { name: "rules", show: loadRules };
