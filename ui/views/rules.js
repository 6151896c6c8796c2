// @ts-check
// The Rules view: the policy's rules (what is decided before you are asked), each
// with where it holds, whose it is and how often it decided, and the remembered
// answers with their uses; each can be removed, and a rule of yours edited as the
// TOML of its entry (a project's own file stays the project's). Then the projects'
// own rules files, each saying whether it applies, with Trust on one that waits. It
// owns no state: the lists are read again each time it is shown.

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
      r.removable
        ? el("button", {
            type: "button",
            class: "edit",
            text: tr("window-rules-edit"),
            onclick: (/** @type {Event} */ e) => editRow(/** @type {HTMLElement} */ (e.target), r),
          })
        : null,
      r.removable ? removeButton(r.id, tr("window-rules-remove")) : null,
    ),
  );
}

// A rule of yours, edited in its row as the TOML of its entry; a mistake is said
// there and nothing is saved.
/** @param {HTMLElement} button the row's Edit @param {PolicyRuleView} r */
function editRow(button, r) {
  const row = button.closest("li");
  if (!row) return;
  const entry = el("textarea", { class: "entry", rows: r.entry.split("\n").length + 1, "aria-label": r.what });
  entry.value = r.entry;
  const error = el("p", { class: "error", role: "alert" });
  const save = () =>
    commands.editRule(r.id, entry.value).then(loadRules, (e) => {
      error.textContent = e && e.message ? e.message : String(e);
    });
  row.replaceChildren(
    entry,
    el(
      "p",
      { class: "origin" },
      el("button", { type: "button", class: "primary approve", text: tr("window-rules-save"), onclick: save }),
      el("button", { type: "button", class: "dismiss", text: tr("window-rules-cancel"), onclick: loadRules }),
    ),
    error,
  );
  entry.focus();
}

/** @param {ProjectView} p */
function projectRow(p) {
  const error = el("p", { class: "error", role: "alert" });
  const trust = () =>
    commands.trustProject(p.file).then(loadRules, (e) => {
      error.textContent = e && e.message ? e.message : String(e);
    });
  return el(
    "li",
    { class: `project ${p.trusted ? "trusted" : "waiting"}` },
    el("p", { class: "text" }, el("code", { text: p.file })),
    el(
      "p",
      { class: "status" },
      el("span", { text: p.statusLabel }),
      p.trusted
        ? null
        : el("button", { type: "button", class: "primary approve", text: tr("window-project-trust"), onclick: trust }),
    ),
    p.problem ? el("p", { class: "notice", text: p.problem }) : null,
    el("ul", { class: "rules-list" }, ...p.rules.map(policyRow)),
    error,
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
  byId("projects-list").replaceChildren(...view.projects.map(projectRow));
  byId("projects-title").hidden = view.projects.length === 0;
}

/** The view, for the registry. */
export const view = { name: "rules", show: loadRules };
