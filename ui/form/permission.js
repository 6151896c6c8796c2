// @ts-check
// A permission prompt: what the agent wants to do, a reason to give with Deny, and one
// button per choice (Allow first).

import { el } from "../dom.js";
import { tr } from "../text.js";
import { detailNode, send } from "./act.js";

/** @type {FormPresentation} */
export const permission = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    const reason = el("input", {
      type: "text",
      class: "other reason",
      "aria-label": tr("window-reason"),
      placeholder: tr("window-reason"),
    });
    reason.value = saved.custom || "";
    fs.append(el("label", { class: "reason" }, el("span", { text: tr("window-reason-hint") }), reason));
  },
  actions(form, view, actions) {
    form.classList.add("buttons");
    const only = view.questions[0];
    const approve = only.intent?.approve;
    const deny = only.options[only.options.length - 1].label;
    only.options.forEach((o, i) => {
      const shown = only.shownOptions[i] || o;
      const cls = o.label === approve ? "primary approve" : o.label === deny ? "deny" : "option-button";
      // The reason typed goes with Deny, never with Allow.
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
  },
  submit: (form) => send(form),
};
