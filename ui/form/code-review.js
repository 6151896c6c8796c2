// @ts-check
// A review of an agent's changes: the diff's files with comments on lines, files and
// the whole change (review.js), Approve, and Request changes with the comments
// (worded for the agent in Rust).

import { commands } from "../bridge.js";
import { el } from "../dom.js";
import { comments, reviewNode } from "../review.js";
import { tr } from "../text.js";
import { act, detailNode, errorLine, send, shownLabel } from "./act.js";

/** @type {FormPresentation} */
export const codeReview = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    fs.append(reviewNode(view.review || []));
  },
  actions(form, view, actions) {
    form.classList.add("buttons");
    const only = view.questions[0];
    const approve = only.approve || "";
    actions.append(
      el("button", {
        type: "button",
        class: "primary approve",
        text: shownLabel(only, approve),
        onclick: () => approveWithout(form, { qid: only.id, label: approve, keepText: false }),
      }),
    );
    for (const o of only.options.filter((o) => o.label !== approve)) {
      actions.append(
        el("button", {
          type: "button",
          class: "deny request-changes",
          text: shownLabel(only, o.label),
          onclick: () => act(form, (ask) => commands.requestChanges(ask, comments(form))),
        }),
      );
    }
  },
  submit: (form) => send(form),
};

// Approve carries nothing written (Claude Code's Stop hook cannot carry notes with a
// stop): the agent reads comments only with Request changes. What was written is never
// dropped unsaid, nor turned into a request for changes: the first Approve says so, and
// a second one approves without it.
/** @param {HTMLFormElement} form @param {import("./act.js").Pick} pick */
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
