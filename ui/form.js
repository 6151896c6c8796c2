// @ts-check
// One ask's form: built from the ask's view (the question, its options, a plan under
// review, a permission's buttons), read back into an answer or a draft, and sent.
// Every string from an agent goes in as text; only the detail comes as HTML, rendered
// and sanitized in Rust.
//
// State it owns: `draftTimers`, each form's pending draft save (dropped in forget()).

import { invoke } from "./bridge.js";
import { el, recycle } from "./dom.js";
import { annotatable, annotations, showEarlier } from "./annotate.js";
import { comments, release, reviewNode } from "./review.js";
import { tr } from "./text.js";

/** Called when an ask turns out to be no longer pending: the list is out of date. */
let stale = () => {};
/** @param {() => void} f */
export function whenStale(f) {
  stale = f;
}

// --- reading the form back -------------------------------------------------

/** @param {HTMLFieldSetElement} fs @returns {QuestionDraft} */
function questionState(fs) {
  const skip = /** @type {HTMLInputElement | null} */ (fs.querySelector("input.skip"));
  const other = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (
    fs.querySelector("input.other, textarea.feedback")
  );
  const checked = /** @type {NodeListOf<HTMLInputElement>} */ (fs.querySelectorAll("input.choice:checked"));
  return {
    selected: [...checked].map((i) => i.value),
    custom: other ? other.value : "",
    skip: !!(skip && skip.checked),
  };
}

/** @param {HTMLFormElement} form @returns {Draft} */
export function draftOf(form) {
  /** @type {Draft} */
  const draft = {};
  for (const fs of questionsOf(form)) draft[fs.dataset.qid || ""] = questionState(fs);
  return draft;
}

/** @param {HTMLFormElement} form */
function questionsOf(form) {
  return /** @type {NodeListOf<HTMLFieldSetElement>} */ (form.querySelectorAll("fieldset.question"));
}

/**
 * @param {HTMLFormElement} form
 * @param {{qid: string, label: string, keepText?: boolean}} [pick] a button pressed for one question
 */
function answerOf(form, pick) {
  const answers = [];
  for (const fs of questionsOf(form)) {
    const s = questionState(fs);
    const id = fs.dataset.qid || "";
    if (s.skip) {
      answers.push({ id, selected: [] });
      continue;
    }
    const picked = pick?.qid === id;
    const selected = pick && picked ? [pick.label] : s.selected;
    /** @type {{id: string, selected: string[], custom?: string}} */
    const item = { id, selected };
    // On a permission prompt typed text is the reason to deny: it goes with Deny (or
    // alone), never with Allow.
    if (s.custom.trim() && !(picked && pick?.keepText === false)) item.custom = s.custom;
    answers.push(item);
  }
  return { answers };
}

// --- acting ----------------------------------------------------------------

// Shows a command's error in the form, unless the form has moved on to another ask.
// Errors are told apart by their code, never their text: an ask that is no longer
// pending (answered elsewhere, withdrawn) only means the list is out of date.
/** @param {HTMLFormElement} form @param {string} ask @param {unknown} thrown */
function showError(form, ask, thrown) {
  const e = /** @type {Partial<UiError> | null} */ (thrown);
  if (e && e.code === "NOT_PENDING") {
    stale();
    return;
  }
  if (form.dataset.ask === ask) errorLine(form).textContent = e && e.message ? e.message : String(e);
}

/** @param {HTMLFormElement} form */
const errorLine = (form) => /** @type {HTMLElement} */ (form.querySelector(".error"));

/**
 * @param {HTMLFormElement} form
 * @param {{qid: string, label: string, keepText?: boolean}} [pick]
 */
async function send(form, pick) {
  const ask = form.dataset.ask || "";
  errorLine(form).textContent = "";
  const keep = /** @type {HTMLInputElement | null} */ (form.querySelector("input.remember"));
  const whom = /** @type {HTMLSelectElement | null} */ (form.querySelector("select.remember-for"));
  const remember = keep && keep.checked ? (whom ? whom.value : "everyone") : null;
  try {
    await invoke("answer_question", { ask, answer: answerOf(form, pick), remember });
  } catch (e) {
    showError(form, ask, e);
  }
}

// A code review's Approve carries nothing written (Claude Code's Stop hook cannot
// carry notes with a stop): the agent reads comments only with Request changes. What
// was written is never dropped unsaid, nor turned into a request for changes: the
// first Approve says so, and a second one approves without it.
/**
 * @param {HTMLFormElement} form
 * @param {{qid: string, label: string, keepText?: boolean}} pick
 */
function approveWithout(form, pick) {
  const boxes = /** @type {NodeListOf<HTMLTextAreaElement>} */ (form.querySelectorAll(".review textarea"));
  const written = [...boxes].some((b) => b.value.trim());
  const warned = form.dataset.warned === "1";
  if (written && !warned) {
    form.dataset.warned = "1";
    errorLine(form).textContent = tr("window-approve-drops-feedback");
    return;
  }
  delete form.dataset.warned;
  send(form, pick);
}

/** @param {HTMLFormElement} form */
async function requestChanges(form) {
  const ask = form.dataset.ask || "";
  errorLine(form).textContent = "";
  try {
    await invoke("request_changes", { ask, comments: comments(form) });
  } catch (e) {
    showError(form, ask, e);
  }
}

// A plan's review: the button's label (an approval, or Revise), the annotations and
// the notes on the whole plan. An approval with notes carries them to the agent.
/** @param {HTMLFormElement} form @param {string} choice */
async function reviewPlan(form, choice) {
  const ask = form.dataset.ask || "";
  errorLine(form).textContent = "";
  const general = /** @type {HTMLTextAreaElement | null} */ (form.querySelector("textarea.feedback"));
  try {
    await invoke("review_plan", { ask, choice, annotations: annotations(form), general: general ? general.value : "" });
  } catch (e) {
    showError(form, ask, e);
  }
}

/** @param {HTMLFormElement} form */
async function dismiss(form) {
  const ask = form.dataset.ask || "";
  try {
    await invoke("dismiss_question", { ask });
  } catch (e) {
    showError(form, ask, e);
  }
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
      invoke("save_draft", { ask: form.dataset.ask, draft: draftOf(form) }).catch(() => {});
    }, 200),
  );
}

/** Saves the drafts of `forms` now, pending saves included. @param {Iterable<HTMLFormElement>} forms */
export function saveDraftsNow(forms) {
  return Promise.all(
    [...forms].map((form) => {
      clearTimeout(draftTimers.get(form));
      return invoke("save_draft", { ask: form.dataset.ask, draft: draftOf(form) }).catch(() => {});
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

// --- building a form -------------------------------------------------------

/** @param {QuestionView} q @param {string} cls */
function detailNode(q, cls) {
  if (!q.detailHtml) return null;
  const node = el("div", { class: cls });
  node.innerHTML = q.detailHtml; // sanitized by ammonia in Rust
  return node;
}

// A revised plan: what the person said of the last version, and what changed since.
/** @param {Revision} revision @param {HTMLElement | null} plan */
function revisionNode(revision, plan) {
  const diff = el("div", { class: "detail diff" });
  diff.innerHTML = revision.diffHtml; // sanitized by ammonia in Rust
  return el(
    "section",
    { class: "revision" },
    el("h3", { text: tr("window-revision-title") }),
    revision.feedback
      ? el(
          "p",
          { class: "feedback-given" },
          el("strong", { text: tr("window-revision-feedback") }),
          " ",
          revision.feedback,
        )
      : null,
    plan ? showEarlier(plan, revision.annotations) : null,
    diff,
  );
}

/** @param {AskView} view @param {QuestionView} q @param {Draft | null} draft */
function questionNode(view, q, draft) {
  const fs = el("fieldset", { class: "question" });
  fs.dataset.qid = q.id;
  /** @type {Partial<QuestionDraft>} */
  const saved = (draft && draft[q.id]) || {};
  fs.append(el("legend", { class: "header", text: q.header || "" }));
  fs.append(el("p", { class: "text", text: q.question }));
  const planned = view.presentation === "planReview";
  const detail = detailNode(q, q.planReview ? "detail plan" : "detail");
  if (planned && view.revision) fs.append(revisionNode(view.revision, detail));
  if (detail) fs.append(planned ? annotatable(detail) : detail);
  if (view.presentation === "codeReview") {
    fs.append(reviewNode(view.review || []));
    return fs;
  }
  if (view.presentation === "elicitation" && q === view.questions[0]) {
    // The server's message: Send and Decline are the form's own buttons.
    fs.classList.add("elicitation");
    return fs;
  }
  if (view.presentation === "permission") {
    const reason = el("input", {
      type: "text",
      class: "other reason",
      "aria-label": tr("window-reason"),
      placeholder: tr("window-reason"),
    });
    reason.value = saved.custom || "";
    fs.append(el("label", { class: "reason" }, el("span", { text: tr("window-reason-hint") }), reason));
    return fs;
  }
  if (planned) {
    const feedback = el("textarea", {
      class: "feedback",
      "aria-label": tr("window-feedback"),
      placeholder: tr("window-feedback-placeholder"),
    });
    feedback.value = saved.custom || "";
    fs.append(feedback);
    return fs;
  }
  if (q.options.length) {
    const list = el("div", { class: "options", role: q.multiSelect ? "group" : "radiogroup" });
    q.options.forEach((o, i) => {
      const shown = q.shownOptions[i] || o;
      const input = el("input", {
        type: q.multiSelect ? "checkbox" : "radio",
        class: "choice",
        name: `${view.ask}:${q.id}`,
        value: o.label,
      });
      input.checked = (saved.selected || []).includes(o.label);
      list.append(
        el(
          "label",
          { class: "option" },
          input,
          el("span", { class: "num", text: i < 9 ? String(i + 1) : "" }),
          el("span", { class: "label-text", text: shown.label }),
          shown.description ? el("span", { class: "desc", text: shown.description }) : null,
        ),
      );
    });
    fs.append(list);
  }
  const other = el("input", {
    type: "text",
    class: "other",
    "aria-label": tr("window-other"),
    placeholder: q.options.length ? tr("window-other-placeholder") : tr("window-your-answer"),
  });
  other.value = saved.custom || "";
  fs.append(other);
  const skip = el("input", { type: "checkbox", class: "skip" });
  skip.checked = !!saved.skip;
  fs.append(el("label", { class: "skip" }, skip, tr("window-skip")));
  return fs;
}

// An option's label as the person sees it: the product's own labels (Allow, Approve…)
// in the person's language. What is sent is always the label itself.
/** @param {QuestionView} q @param {string} label */
function shownLabel(q, label) {
  const i = q.options.findIndex((o) => o.label === label);
  return i >= 0 && q.shownOptions[i] ? q.shownOptions[i].label : label;
}

/** @param {QuestionView} q @param {string} label */
function shownDescription(q, label) {
  const i = q.options.findIndex((o) => o.label === label);
  return (i >= 0 && (q.shownOptions[i] || q.options[i]).description) || "";
}

/** @param {ListedAsk} view @returns {HTMLFormElement} */
export function formFor(view) {
  const form = el("form", { class: "ask", tabIndex: -1 });
  form.dataset.ask = view.ask;
  form.dataset.agent = view.agent ? view.agent.id : "";
  form.setAttribute("aria-label", view.questions[0].header || view.questions[0].question);
  form.append(originNode(view));
  for (const q of view.questions) form.append(questionNode(view, q, view.draft));
  const actions = el("div", { class: "actions" });
  const only = view.questions[0];
  if (view.presentation === "permission") {
    form.classList.add("buttons");
    const approve = only.intent?.approve;
    const deny = only.options[only.options.length - 1].label;
    only.options.forEach((o, i) => {
      const shown = only.shownOptions[i] || o;
      const cls = o.label === approve ? "primary approve" : o.label === deny ? "deny" : "option-button";
      const keepText = o.label === deny;
      actions.append(
        el("button", {
          type: "button",
          class: cls,
          text: shown.label,
          title: shown.description || "",
          onclick: () => send(form, { qid: only.id, label: o.label, keepText }),
        }),
      );
    });
  } else if (view.presentation === "planReview" || view.presentation === "codeReview") {
    // Approve first; a plan's other choices send the feedback typed, a code review's
    // Request changes sends its comments (worded for the agent in Rust).
    form.classList.add("buttons");
    const approve = only.intent?.approve || "";
    const review = view.presentation === "codeReview";
    actions.append(
      el("button", {
        type: "button",
        class: "primary approve",
        text: shownLabel(only, approve),
        onclick: () =>
          review ? approveWithout(form, { qid: only.id, label: approve, keepText: false }) : reviewPlan(form, approve),
      }),
    );
    for (const o of only.options.filter((o) => o.label !== approve)) {
      actions.append(
        el("button", {
          type: "button",
          class: review ? "deny request-changes" : "option-button",
          text: shownLabel(only, o.label),
          onclick: () => (review ? requestChanges(form) : reviewPlan(form, o.label)),
        }),
      );
    }
  } else if (view.presentation === "elicitation") {
    // An MCP server's form: Send (or Open, for a page) and Decline, over its fields.
    form.classList.add("buttons");
    const approve = only.intent?.approve || "";
    for (const o of only.options) {
      const primary = o.label === approve;
      actions.append(
        el("button", {
          type: primary ? "submit" : "button",
          class: primary ? "primary approve" : "deny",
          text: shownLabel(only, o.label),
          title: shownDescription(only, o.label),
          onclick: primary ? null : () => send(form, { qid: only.id, label: o.label }),
        }),
      );
    }
  } else {
    actions.append(el("button", { type: "submit", class: "primary", text: tr("window-submit") }));
  }
  if (view.canRemember) actions.append(rememberNode(view));
  actions.append(
    el("button", { type: "button", class: "dismiss", text: tr("window-dismiss"), onclick: () => dismiss(form) }),
  );
  actions.append(el("div", { class: "error", role: "alert" }));
  form.append(actions);
  form.onsubmit = (e) => {
    e.preventDefault();
    // A form's Send (Enter included) is its first question's approve label.
    const approve = view.presentation === "elicitation" ? only.intent?.approve : undefined;
    send(form, approve ? { qid: only.id, label: approve } : undefined);
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

// Who asks, in which project and session: one line above each ask.
/** @param {ListedAsk} view */
function originNode(view) {
  const c = view.context || {};
  const by = c.source || (view.agent && view.agent.client) || "";
  const line = el("p", { class: "origin" });
  if (by) line.append(el("span", { class: "source", text: by }));
  if (c.project) line.append(el("span", { class: "project", text: baseName(c.project), title: c.project }));
  if (c.session) line.append(el("span", { class: "session", text: view.sessionLabel || "", title: c.session }));
  if (c.machine) line.append(el("span", { class: "machine", text: c.machine, title: tr("window-machine") }));
  if (view.agent) line.append(el("span", { class: "agent-id", text: view.agent.id }));
  return line;
}

/** @param {string} path */
function baseName(path) {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : path;
}
