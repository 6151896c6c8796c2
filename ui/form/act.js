// @ts-check
// What every presentation of a form does with it: reads it back into an answer or a
// draft, sends it through the bridge, and shows a command's error in the form.
// Errors are told apart by their code, never their text.
//
// State it owns: `stale`, what to do when an ask turns out to be no longer pending.

import { commands } from "../bridge.js";
import { el } from "../dom.js";

/** A button pressed for one question: its label, and whether typed text goes with it. */
/** @typedef {{qid: string, label: string, keepText?: boolean}} Pick */

/** Called when an ask turns out to be no longer pending: the list is out of date. */
let stale = () => {};
/** @param {() => void} f */
export function whenStale(f) {
  stale = f;
}

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

/** @param {HTMLFormElement} form */
function questionsOf(form) {
  return /** @type {NodeListOf<HTMLFieldSetElement>} */ (form.querySelectorAll("fieldset.question"));
}

/** @param {HTMLFormElement} form @returns {Draft} */
export function draftOf(form) {
  /** @type {Draft} */
  const draft = {};
  for (const fs of questionsOf(form)) draft[fs.dataset.qid || ""] = questionState(fs);
  return draft;
}

/** @param {HTMLFormElement} form @param {Pick} [pick] @returns {Answer} */
function answerOf(form, pick) {
  /** @type {AnswerItem[]} */
  const answers = [];
  for (const fs of questionsOf(form)) {
    const s = questionState(fs);
    const id = fs.dataset.qid || "";
    if (s.skip) {
      answers.push({ id, selected: [] });
      continue;
    }
    const picked = pick?.qid === id;
    /** @type {AnswerItem} */
    const item = { id, selected: pick && picked ? [pick.label] : s.selected };
    // On a permission prompt typed text is the reason to deny: it goes with Deny (or
    // alone), never with Allow.
    if (s.custom.trim() && !(picked && pick?.keepText === false)) item.custom = s.custom;
    answers.push(item);
  }
  return { answers };
}

/** @param {HTMLFormElement} form */
export const errorLine = (form) => /** @type {HTMLElement} */ (form.querySelector(".error"));

// Runs one of the form's commands; an ask no longer pending (answered elsewhere,
// withdrawn) only means the list is out of date, any other error shows in the form
// unless it has moved on to another ask.
/** @param {HTMLFormElement} form @param {(ask: string) => Promise<void>} command */
export async function act(form, command) {
  const ask = form.dataset.ask || "";
  errorLine(form).textContent = "";
  try {
    await command(ask);
  } catch (thrown) {
    const e = /** @type {Partial<UiError> | null} */ (thrown);
    if (e && e.code === "NOT_PENDING") stale();
    else if (form.dataset.ask === ask) errorLine(form).textContent = e && e.message ? e.message : String(e);
  }
}

/**
 * Sends the form's answer; `way`, a permission's way to remember an Allow, stands for
 * the Remember box. @param {HTMLFormElement} form @param {Pick} [pick] @param {RememberFor} [way]
 */
export function send(form, pick, way) {
  const keep = /** @type {HTMLInputElement | null} */ (form.querySelector("input.remember"));
  const whom = /** @type {HTMLSelectElement | null} */ (form.querySelector("select.remember-for"));
  /** @type {RememberFor | null} */
  const remember = way || (keep && keep.checked ? (whom && whom.value === "client" ? "client" : "everyone") : null);
  return act(form, (ask) => commands.answerQuestion(ask, answerOf(form, pick), remember));
}

/** @param {HTMLFormElement} form */
export const dismiss = (form) => act(form, (ask) => commands.dismissQuestion(ask));

// An option's label as the person sees it: the product's own labels (Allow, Approve…)
// in the person's language. What is sent is always the label itself.
/** @param {QuestionView} q @param {string} label */
export function shownLabel(q, label) {
  const i = q.options.findIndex((o) => o.label === label);
  return i >= 0 && q.shownOptions[i] ? q.shownOptions[i].label : label;
}

/** @param {QuestionView} q @param {string} label */
export function shownDescription(q, label) {
  const i = q.options.findIndex((o) => o.label === label);
  return (i >= 0 && (q.shownOptions[i] || q.options[i]).description) || "";
}

/** A question's detail, rendered and sanitized in Rust. @param {QuestionView} q */
export function detailNode(q) {
  if (!q.detailHtml) return null;
  const node = el("div", { class: q.kind === "plan-review" ? "detail plan" : "detail" });
  node.innerHTML = q.detailHtml; // sanitized by ammonia in Rust
  return node;
}
