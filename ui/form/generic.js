// @ts-check
// A question as a form of its own: its options (one or many), a line for another
// answer, Skip, and Submit. Also the fields of every question after the first of an
// MCP server's form.

import { el } from "../dom.js";
import { tr } from "../text.js";
import { detailNode, send } from "./act.js";

/** @type {FormPresentation} */
export const generic = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    fields(view, q, saved, fs);
  },
  actions(form, view, actions) {
    actions.append(el("button", { type: "submit", class: "primary", text: tr("window-submit") }));
  },
  submit: (form) => send(form),
};

/** The options, another answer and Skip. @param {ListedAsk} view @param {QuestionView} q
 *  @param {Partial<QuestionDraft>} saved @param {HTMLFieldSetElement} fs */
export function fields(view, q, saved, fs) {
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
}
