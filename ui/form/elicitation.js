// @ts-check
// An MCP server's form: its message, its fields (every question after the first), and
// Send (or Open, for a page) and Decline as the form's own buttons; Enter sends.

import { el } from "../dom.js";
import { detailNode, send, shownDescription, shownLabel } from "./act.js";
import { fields } from "./generic.js";

/** @type {FormPresentation} */
export const elicitation = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    if (q === view.questions[0]) fs.classList.add("elicitation");
    else fields(view, q, saved, fs);
  },
  actions(form, view, actions) {
    form.classList.add("buttons");
    const only = view.questions[0];
    const approve = only.approve || "";
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
  },
  // A form's Send (Enter included) is its first question's approve label.
  submit(form, view) {
    const only = view.questions[0];
    const approve = only.approve;
    return send(form, approve ? { qid: only.id, label: approve } : undefined);
  },
};
