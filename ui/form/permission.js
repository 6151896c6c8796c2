// @ts-check
// A permission prompt: what the agent wants to do, a reason to give with Deny, one
// button per choice (Allow first, then "Allow for this session" where the agent has a
// session), and the ways to remember an Allow as rules of the policy, each with how
// many past questions it would have answered.

import { el } from "../dom.js";
import { tr } from "../text.js";
import { detailNode, send } from "./act.js";

/** @type {FormPresentation} */
export const permission = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    if (view.parts.length) fs.append(partsNode(view.parts));
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
    const approve = only.approve;
    const deny = only.options[only.options.length - 1].label;
    const ways = view.rememberWays.length ? waysNode(view.rememberWays) : null;
    only.options.forEach((o, i) => {
      const shown = only.shownOptions[i] || o;
      const cls = o.label === approve ? "primary approve" : o.label === deny ? "deny" : "option-button";
      // The reason typed goes with Deny, never with Allow; a way to remember, only with Allow.
      const keepText = o.label === deny;
      const button = el("button", {
        type: "button",
        class: cls,
        text: shown.label,
        title: shown.description || "",
        onclick: () => {
          const way = ways && o.label === approve ? ways.select.value : "";
          send(form, { qid: only.id, label: o.label, keepText }, way ? { way: Number(way) } : undefined);
        },
      });
      // A handler property, never a listener: pooled elements lose their handlers (dom.js).
      if (ways && o.label === approve)
        ways.select.onchange = () => {
          button.textContent = ways.select.value ? tr("window-allow-remember") : shown.label;
        };
      actions.append(button);
      // Beside Allow: the same Allow, kept as a rule of this agent session.
      const sessionWay = view.sessionWay;
      if (o.label === approve && ways && sessionWay != null) {
        const way = view.rememberWays[sessionWay];
        actions.append(
          el("button", {
            type: "button",
            class: "option-button allow-session",
            text: tr("window-allow-session"),
            title: way ? way.label : "",
            onclick: () => send(form, { qid: only.id, label: o.label, keepText: false }, { way: sessionWay }),
          }),
        );
      }
    });
    if (ways) actions.append(ways.node);
  },
  submit: (form) => send(form),
};

// "Don't ask again for": nothing more (the first choice), or one of the ways.
/** @param {WayView[]} ways */
function waysNode(ways) {
  // Built new, never from the pool: WebKit remembers a reused select's last pick and
  // fires no change when that index is picked again.
  const select = document.createElement("select");
  select.className = "remember-way";
  select.setAttribute("aria-label", tr("window-remember-allow"));
  select.append(
    el("option", { value: "", text: tr("window-remember-once") }),
    ...ways.map((w) =>
      el("option", {
        value: String(w.way),
        text: w.pastLabel ? `${w.label} (${w.pastLabel})` : w.label,
      }),
    ),
  );
  // Nothing is remembered until the person picks a way.
  select.value = "";
  const node = el("label", { class: "remember-ways" }, el("span", { text: tr("window-remember-allow") }), select);
  return { node, select };
}

// What each part would do and why it reached the person: fixed readings from the
// policy's tables, worded in Rust; the parts a rule allows are shown quieter.
/** @param {PartView[]} parts */
function partsNode(parts) {
  return el(
    "section",
    { class: "parts", "aria-label": tr("window-parts") },
    el("h4", { text: tr("window-parts") }),
    el(
      "ul",
      {},
      ...parts.map((p) =>
        el(
          "li",
          { class: p.allowed ? "part allowed" : "part" },
          el("code", { text: p.text }),
          el("span", { class: "does", text: p.does }),
          el("span", { class: "why", text: p.why }),
        ),
      ),
    ),
  );
}
