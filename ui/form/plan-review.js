// @ts-check
// A plan under review: the plan as a document the person annotates in its margin, what
// changed since the version they last revised, notes on the whole plan, and Approve
// first, then the other choices (Revise). The review is worded for the agent in Rust.

import { commands } from "../bridge.js";
import { el } from "../dom.js";
import { annotatable, annotations, showEarlier } from "../annotate.js";
import { tr } from "../text.js";
import { act, detailNode, send, shownLabel } from "./act.js";

/** @type {FormPresentation} */
export const planReview = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (view.revision) fs.append(revisionNode(view.revision, detail));
    if (detail) fs.append(annotatable(detail));
    const feedback = el("textarea", {
      class: "feedback",
      "aria-label": tr("window-feedback"),
      placeholder: tr("window-feedback-placeholder"),
    });
    feedback.value = saved.custom || "";
    fs.append(feedback);
  },
  actions(form, view, actions) {
    form.classList.add("buttons");
    const only = view.questions[0];
    const approve = only.approve || "";
    for (const label of [approve, ...only.options.map((o) => o.label).filter((l) => l !== approve)]) {
      actions.append(
        el("button", {
          type: "button",
          class: label === approve ? "primary approve" : "option-button",
          text: shownLabel(only, label),
          onclick: () => review(form, label),
        }),
      );
    }
  },
  submit: (form) => send(form),
};

// The button's label (an approval, or Revise), the annotations and the notes on the
// whole plan. An approval with notes carries them to the agent.
/** @param {HTMLFormElement} form @param {string} choice */
function review(form, choice) {
  const general = /** @type {HTMLTextAreaElement | null} */ (form.querySelector("textarea.feedback"));
  return act(form, (ask) => commands.reviewPlan(ask, choice, annotations(form), general ? general.value : ""));
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
