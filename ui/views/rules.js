// @ts-check
// The Rules view: the policy's rules (what is decided before you are asked), each
// with where it holds, whose it is and how often it decided, and the remembered
// answers with their uses; each can be removed (a project's own file stays the
// project's). It owns no state: the lists are read again each time it is shown.

import { commands } from "../bridge.js";
import { byId, el } from "../dom.js";
import { tr } from "../text.js";

/** @param {RuleId} id @param {string} label */
function removeButton(id, label) {
  return el("button", {
    type: "button",
    class: "dismiss",
    text: label,
    onclick: () => commands.removeRule(id).then(loadRules, loadRules),
  });
}

/** @param {PolicyRuleView} r */
function policyRow(r) {
  return el(
    "li",
    { class: `rule policy ${r.verdict}` },
    el(
      "p",
      { class: "text" },
      el("span", { class: `verdict ${r.verdict}`, text: r.verdictLabel }),
      " ",
      el("code", { text: r.what.replace(/^`(.*)`$/, "$1") }),
    ),
    r.reason ? el("p", { class: "outcome", text: r.reason }) : null,
    el(
      "p",
      { class: "origin" },
      el("span", { class: "scope", text: r.scopeLabel }),
      el("span", { class: "source", text: r.originLabel }),
      el("span", { class: "uses", text: r.usesLabel }),
      r.lastUsedAt
        ? el("time", {
            text: new Date(r.lastUsedAt).toLocaleString(document.documentElement.lang),
            title: r.lastUsedAt,
          })
        : null,
      r.removable ? removeButton(r.id, tr("window-rules-remove")) : null,
    ),
  );
}

/** @param {RuleView} r */
function rememberedRow(r) {
  return el(
    "li",
    { class: "rule" },
    el("p", { class: "text", text: r.question }),
    el("p", { class: "outcome", text: `→ ${r.answer}` }),
    el(
      "p",
      { class: "origin" },
      el("span", { class: "source", text: r.clientLabel }),
      el("span", { class: "uses", text: r.usesLabel }),
      removeButton(r.id, tr("window-rules-forget")),
    ),
  );
}

async function loadRules() {
  /** @type {RulesView} */
  const view = await commands.listRules();
  byId("policy-list").replaceChildren(...view.policy.map(policyRow));
  byId("policy-empty").hidden = view.policy.length > 0 || view.problem !== null;
  byId("rules-list").replaceChildren(...view.remembered.map(rememberedRow));
  byId("rules-empty").hidden = view.remembered.length > 0;
  const problem = byId("rules-problem");
  problem.textContent = view.problem ?? "";
  problem.hidden = view.problem === null;
}

/** The view, for the registry. */
export const view = { name: "rules", show: loadRules };
