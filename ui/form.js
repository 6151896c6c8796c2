// @ts-check
// One ask's form: its origin, each question's header and text, then what its
// presentation adds (ui/form/: a question's fields, a permission's buttons, a plan
// under review, a code review, an MCP server's form, a file pick), Remember, Dismiss, and its draft
// kept as the person types. Every string from an agent goes in as text; only the
// detail comes as HTML, rendered and sanitized in Rust.
//
// State it owns: `draftTimers`, each form's pending draft save (dropped in forget()).

import { commands } from "./bridge.js";
import { el, recycle } from "./dom.js";
import { release } from "./review.js";
import { tr } from "./text.js";
import { dismiss, draftOf } from "./form/act.js";
import { codeReview } from "./form/code-review.js";
import { elicitation } from "./form/elicitation.js";
import { filePick } from "./form/file-pick.js";
import { permission } from "./form/permission.js";
import { planReview } from "./form/plan-review.js";
import { generic } from "./form/generic.js";

export { whenStale } from "./form/act.js";

/**
 * Each kind's presentation, one module of ui/form/ each, named as its kind; a kind
 * with none here is shown as the generic form (`presented` in Rust says which).
 * @type {Partial<Record<QuestionKind, FormPresentation>>}
 */
const PRESENTATIONS = {
  generic,
  permission,
  "plan-review": planReview,
  "code-review": codeReview,
  elicitation,
  "file-pick": filePick,
};

/** @param {ListedAsk} view @returns {HTMLFormElement} */
export function formFor(view) {
  const shown = PRESENTATIONS[view.presentation] || generic;
  const form = el("form", { class: "ask", tabIndex: -1 });
  form.dataset.ask = view.ask;
  form.dataset.agent = view.agent ? view.agent.id : "";
  form.setAttribute("aria-label", view.questions[0].header || view.questions[0].question);
  form.append(originNode(view));
  const says = saysNode(view.says);
  if (says) form.append(says);
  for (const q of view.questions) {
    const fs = el("fieldset", { class: "question" });
    fs.dataset.qid = q.id;
    fs.append(el("legend", { class: "header", text: q.header || "" }));
    fs.append(el("p", { class: "text", text: q.question }));
    shown.body(view, q, (view.draft && view.draft[q.id]) || {}, fs);
    form.append(fs);
  }
  // A team question's count, once there is one: the person may vote again.
  form.append(el("p", { class: "team", role: "status", hidden: true }));
  const actions = el("div", { class: "actions" });
  shown.actions(form, view, actions);
  if (view.canRemember) actions.append(rememberNode(view));
  actions.append(
    el("button", { type: "button", class: "dismiss", text: tr("window-dismiss"), onclick: () => dismiss(form) }),
  );
  actions.append(el("div", { class: "error", role: "alert" }));
  form.append(actions);
  form.onsubmit = (e) => {
    e.preventDefault();
    shown.submit(form, view);
  };
  form.oninput = (e) => {
    const target = /** @type {HTMLInputElement} */ (e.target);
    if (target.classList.contains("skip"))
      target
        .closest("fieldset")
        ?.querySelectorAll(".choice, .other")
        .forEach((i) => {
          /** @type {HTMLInputElement} */ (i).disabled = target.checked;
        });
    saveDraft(form);
  };
  return form;
}

/** @type {Map<HTMLFormElement, number>} form -> its pending save; dropped in forget() */
const draftTimers = new Map();
/** Saves the form's draft once typing pauses. @param {HTMLFormElement} form */
export function saveDraft(form) {
  clearTimeout(draftTimers.get(form));
  draftTimers.set(
    form,
    setTimeout(() => {
      draftTimers.delete(form);
      commands.saveDraft(form.dataset.ask || "", draftOf(form)).catch(() => {});
    }, 200),
  );
}

/** Saves the drafts of `forms` now, pending saves included. @param {Iterable<HTMLFormElement>} forms */
export function saveDraftsNow(forms) {
  return Promise.all(
    [...forms].map((form) => {
      clearTimeout(draftTimers.get(form));
      return commands.saveDraft(form.dataset.ask || "", draftOf(form)).catch(() => {});
    }),
  );
}

// A form whose ask ended: its pending draft is dropped with it, and its elements
// go back to the pool.
/** @param {HTMLFormElement} form */
export function forget(form) {
  clearTimeout(draftTimers.get(form));
  draftTimers.delete(form);
  release(form);
  recycle(form);
}

// "Remember this answer", for this client or for every client: the next time the
// same question comes, it is answered at once.
/** @param {ListedAsk} view */
function rememberNode(view) {
  const box = el(
    "label",
    { class: "remember" },
    el("input", { type: "checkbox", class: "remember" }),
    tr("window-remember"),
  );
  if (!view.rememberClient) return box;
  const whom = el(
    "select",
    { class: "remember-for", "aria-label": tr("window-remember") },
    el("option", { value: "client", text: view.rememberClient }),
    el("option", { value: "everyone", text: tr("window-remember-everyone") }),
  );
  return el("span", { class: "remember-group" }, box, whom);
}

// Who asks, in which project, branch, folder and session: one line above each ask.
/** @param {ListedAsk} view */
function originNode(view) {
  const c = view.context || {};
  const p = view.place;
  const by = c.source || (view.agent && view.agent.client) || "";
  const line = el("p", { class: "origin" });
  if (by) line.append(el("span", { class: "source", text: by }));
  if (p.project) line.append(el("span", { class: "project", text: p.project, title: p.projectPath || "" }));
  if (p.branch) line.append(el("span", { class: "branch", text: p.branch }));
  if (p.folder) line.append(el("span", { class: "folder", text: p.folder }));
  if (c.session) line.append(el("span", { class: "session", text: view.sessionLabel || "", title: c.session }));
  if (c.machine) line.append(el("span", { class: "machine", text: c.machine, title: tr("window-machine") }));
  if (view.agent) line.append(el("span", { class: "agent-id", text: view.agent.id }));
  return line;
}

// What the agent says of its request, labelled as its own words: the call's
// description, then its last message, folded when long. Text only, made inert in Rust.
/** @param {SaysView} says */
function saysNode(says) {
  if (!says.description && !says.lastMessage) return null;
  const node = el(
    "section",
    { class: "says", "aria-label": tr("window-agent-says") },
    el("h4", { text: tr("window-agent-says") }),
  );
  if (says.description) node.append(el("blockquote", { class: "description", text: says.description }));
  if (says.lastMessage) {
    const last = el(
      "details",
      { class: "last-message" },
      el("summary", { text: tr("window-agent-last-message") }),
      el("blockquote", { text: says.lastMessage }),
    );
    last.open = says.lastMessage.length <= FOLDED_AFTER;
    node.append(last);
  }
  return node;
}

// A last message longer than this many characters starts folded.
const FOLDED_AFTER = 280;
