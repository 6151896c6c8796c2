// @ts-check
// The inbox: a side list of what waits, in groups (an agent session, or an agent,
// decided and worded in Rust), oldest first; the selected question on the right, full
// size. Every form stays in the page, hidden unless selected, so drafts and focus
// survive moving between questions. Keys: j and k (or the arrows) move, 1-9 pick,
// Enter sends, x marks a permission for a batch (batch.js), Escape hides the window.

import * as batch from "./batch.js";
import { commands } from "./bridge.js";
import { byId, el, recycle } from "./dom.js";
import { forget, formFor, saveDraft, saveDraftsNow, whenStale } from "./form.js";
import { loadText } from "./text.js";

const side = byId("waiting");
const pane = byId("selected");
const empty = byId("empty");

// What the inbox owns, in one place.
const state = {
  /** @type {Map<string, HTMLFormElement>} ask id -> its form, in the page */
  forms: new Map(),
  /** @type {string[]} the asks in the order of the side list */
  order: [],
  /** @type {string | null} the ask shown on the right */
  selected: null,
  /** Whether the person has picked a question yet; until then the oldest is shown. */
  picked: false,
  // WebKit keeps what a long run of questions used until the page is loaded again, so
  // after `renewAfter` forms built (a figure from Rust) the page asks to be loaded
  // again, in a new page process, the next time nothing waits and the question list
  // is in view: nothing is lost, nothing shows.
  built: 0,
  renewAfter: Infinity,
  renewing: false,
  // One refresh at a time; changes that arrive meanwhile are folded into one more.
  /** @type {Promise<void> | null} */
  refreshing: null,
  again: false,
};

/** @param {number} n forms built before the page is loaded again */
export function renewAfter(n) {
  state.renewAfter = n;
}

function renew() {
  if (state.renewing) return;
  state.renewing = true;
  commands.renewPage().catch(() => location.reload());
}

/** @param {GroupView} g @returns {HTMLElement} */
function groupFor(g) {
  let group = /** @type {HTMLElement[]} */ ([...side.querySelectorAll("section.agent")]).find(
    (s) => s.dataset.agent === g.key,
  );
  if (group === undefined) {
    const title = el(
      "h2",
      {},
      el("span", { class: "id", text: g.name }),
      el("span", { class: "n" }),
      el(
        "span",
        { class: "about" },
        el("span", { class: "client", text: g.client }),
        el("span", { class: "depth", text: g.detail }),
      ),
    );
    const made = el("section", { class: "agent" }, title, el("ol", { class: "items" }));
    made.dataset.agent = g.key;
    side.append(made);
    group = made;
  }
  /** @type {HTMLElement} */ (group.querySelector(".n")).textContent = g.countLabel;
  return group;
}

/** The side list's line for an ask: its header and question, and how many more it holds. @param {ListedAsk} view */
function itemFor(view) {
  const q = view.questions[0];
  const more = view.questions.length > 1 ? ` +${view.questions.length - 1}` : "";
  const button = el(
    "button",
    {
      type: "button",
      class: "item",
      // With Ctrl, ⌘ or Shift, a click marks for a batch rather than opens.
      onclick: (/** @type {MouseEvent} */ e) =>
        e.ctrlKey || e.metaKey || e.shiftKey ? batch.toggle(view.ask, e.shiftKey) : focusAsk(view.ask),
    },
    q.header ? el("span", { class: "header", text: q.header }) : null,
    el("span", { class: "title", text: q.question + more }),
  );
  button.dataset.ask = view.ask;
  return el("li", {}, button);
}

/** Reads the list again and shows it. */
export function refresh() {
  if (state.refreshing) {
    state.again = true;
    return state.refreshing;
  }
  state.refreshing = render().finally(() => {
    state.refreshing = null;
    if (state.again) {
      state.again = false;
      refresh();
    }
  });
  return state.refreshing;
}
whenStale(refresh);

async function render() {
  apply(await commands.listQuestions());
}

/** @param {ListView} view */
function apply(view) {
  const list = view.asks;
  const groups = new Map(view.groups.map((g) => [g.key, groupFor(g)]));
  const live = new Set(list.map((v) => v.ask));
  for (const [ask, form] of state.forms) {
    if (!live.has(ask)) {
      forget(form);
      state.forms.delete(ask);
      const item = side.querySelector(`button.item[data-ask="${CSS.escape(ask)}"]`);
      if (item) recycle(/** @type {HTMLElement} */ (item.parentElement));
    }
  }
  // Each group in the order the asks were received: an ask can reach the window
  // after a later one, so new lines are placed, not appended.
  const last = new Map();
  for (const view of list) {
    if (!state.forms.has(view.ask)) {
      const form = formFor(view);
      state.built++;
      form.hidden = true;
      state.forms.set(view.ask, form);
      pane.append(form);
    }
    const team = /** @type {HTMLElement} */ (state.forms.get(view.ask)?.querySelector("p.team"));
    team.textContent = view.team || "";
    team.hidden = !view.team;
    const group = /** @type {HTMLElement} */ (groups.get(view.group));
    const items = /** @type {HTMLElement} */ (group.querySelector("ol.items"));
    const item = side.querySelector(`button.item[data-ask="${CSS.escape(view.ask)}"]`)?.parentElement || itemFor(view);
    const prev = last.get(group);
    if (prev ? item.previousElementSibling !== prev : items.firstElementChild !== item) {
      if (prev) prev.after(item);
      else items.prepend(item);
    }
    last.set(group, item);
  }
  for (const group of side.querySelectorAll("section.agent")) {
    if (!group.querySelector("button.item")) recycle(group);
  }
  // The side list's order, groups as they stand.
  const before = state.order;
  state.order = [...side.querySelectorAll("button.item")].map((b) => /** @type {HTMLElement} */ (b).dataset.ask || "");
  // The oldest is shown until the person picks one; a picked question, once answered,
  // gives way to the one after it in the list (the one before, when it was the last).
  const { order, selected, picked } = state;
  let kept = order[0] || null;
  const at = selected ? before.indexOf(selected) : -1;
  if (picked && selected && live.has(selected)) kept = selected;
  else if (picked && at >= 0) kept = before.slice(at).find((a) => live.has(a)) || order[order.length - 1] || null;
  select(kept, false);
  batch.update(list, state.order);
  empty.hidden = list.length > 0;
  if (!list.length && state.built >= state.renewAfter && !byId("questions").hidden) renew();
  byId("count").textContent = view.waiting;
  document.title = view.title;
}

/** Shows `ask` on the right, and marks its line; with `focus`, the focus moves in. */
/** @param {string | null} ask @param {boolean} focus */
function select(ask, focus) {
  state.selected = ask;
  for (const [a, form] of state.forms) {
    form.hidden = a !== ask;
    form.classList.toggle("focused", a === ask);
  }
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (side.querySelectorAll("button.item"))) {
    if (item.dataset.ask === ask) {
      item.setAttribute("aria-current", "true");
      item.scrollIntoView({ block: "nearest" });
    } else item.removeAttribute("aria-current");
  }
  const form = ask && state.forms.get(ask);
  if (form && focus)
    /** @type {HTMLElement} */ (
      form.querySelector("input.pick-search, input.choice, textarea, input.other, button") || form
    ).focus();
}

/** Shows `ask` as the person's pick, the focus in it. @param {string} ask */
export function focusAsk(ask) {
  if (!state.forms.has(ask)) return;
  state.picked = true;
  select(ask, true);
}

/** @returns {HTMLFormElement | null} */
function currentForm() {
  const active = document.activeElement && document.activeElement.closest("form.ask");
  return /** @type {HTMLFormElement | null} */ (active || (state.selected && state.forms.get(state.selected)) || null);
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    e.preventDefault();
    commands.hideWindow();
    return;
  }
  const target = /** @type {HTMLElement} */ (e.target);
  const typing = target.matches("input[type=text], input[type=search], textarea, select");
  const form = currentForm();
  if (!form || typing || e.ctrlKey || e.metaKey || e.altKey) return;
  // j and k (or the arrows, outside a group of options) go to the next and previous
  // question, in the order of the list.
  const step = { j: 1, k: -1, ArrowDown: 1, ArrowUp: -1 }[e.key];
  if (step && (e.key === "j" || e.key === "k" || !target.matches("input"))) {
    e.preventDefault();
    const { order } = state;
    const next = order[Math.min(order.length - 1, Math.max(0, order.indexOf(form.dataset.ask || "") + step))];
    if (next) focusAsk(next);
    return;
  }
  if (e.key === "x") {
    e.preventDefault();
    batch.toggle(form.dataset.ask || "", false);
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const choice = /** @type {HTMLInputElement | undefined} */ (
      form.querySelectorAll("fieldset.question")[0]?.querySelectorAll("input.choice")[Number(e.key) - 1]
    );
    const planButton = /** @type {HTMLButtonElement | undefined} */ (
      form.querySelectorAll(".actions button:not(.dismiss)")[Number(e.key) - 1]
    );
    if (choice) {
      choice.checked = choice.type === "radio" ? true : !choice.checked;
      choice.focus();
      saveDraft(form);
    } else if (planButton && form.classList.contains("buttons")) planButton.focus();
    e.preventDefault();
  } else if (e.key === "Enter" && !target.matches("button")) {
    e.preventDefault();
    const approve = /** @type {HTMLButtonElement | null} */ (form.querySelector("button.approve"));
    if (approve) approve.click();
    else form.requestSubmit();
  }
});

// Another language: the page's words are loaded again and every form is built anew
// from Rust, drafts included (pending ones are saved first), focus kept.
export async function relabel() {
  const focused = currentForm();
  const ask = focused && focused.dataset.ask;
  await saveDraftsNow(state.forms.values());
  await loadText();
  /** @type {ListView} */
  const view = await commands.listQuestions();
  // Taken apart and built again in one go: the page is never seen empty.
  for (const form of state.forms.values()) forget(form);
  state.forms.clear();
  for (const group of [...side.querySelectorAll("section.agent")]) recycle(group);
  state.selected = ask || null;
  apply(view);
  if (ask) focusAsk(ask);
}
