// @ts-check
// A file pick: a search over every file (or folder) under the question's root, found
// in Rust as the person types (nucleo), the letters that matched in bold, a look inside
// the path under the cursor, hidden names on request. The arrows move, Enter picks,
// Space marks one more when several may be picked. Only the paths picked are sent.
//
// State it owns: `picks`, each pick's results and cursor, by its fieldset.

import { commands } from "../bridge.js";
import { el, recycle } from "../dom.js";
import { tr } from "../text.js";
import { detailNode, errorLine, send } from "./act.js";

/** @typedef {{ask: string, qid: string, multi: boolean, found: FoundPath[], at: number, asked: number}} PickState */

/** @type {WeakMap<HTMLFieldSetElement, PickState>} */
const picks = new WeakMap();

/** @type {FormPresentation} */
export const filePick = {
  body(view, q, saved, fs) {
    const detail = detailNode(q);
    if (detail) fs.append(detail);
    const folders = q.pick?.of === "folders";
    /** @type {PickState} */
    const state = { ask: view.ask, qid: q.id, multi: q.multiSelect, found: [], at: 0, asked: 0 };
    picks.set(fs, state);
    const search = el("input", {
      type: "search",
      class: "pick-search",
      autocomplete: "off",
      spellcheck: false,
      "aria-label": tr(folders ? "window-pick-search-folders" : "window-pick-search-files"),
      placeholder: tr(folders ? "window-pick-search-folders" : "window-pick-search-files"),
    });
    const hidden = el("input", { type: "checkbox", class: "pick-hidden" });
    const results = el("ul", { class: "pick-results", role: "listbox", "aria-multiselectable": String(state.multi) });
    const marked = el("div", { class: "pick-marked", "aria-label": tr("window-pick-marked") });
    fs.append(
      el(
        "p",
        { class: "pick-root" },
        el("span", { text: tr("window-pick-under") }),
        el("code", { text: q.pick?.root || "" }),
      ),
      el(
        "div",
        { class: "pick-bar" },
        search,
        el("label", { class: "pick-hidden" }, hidden, tr("window-pick-hidden")),
        el("span", { class: "pick-count", role: "status" }),
      ),
      el(
        "div",
        { class: "pick-panes" },
        results,
        el("pre", { class: "pick-preview", "aria-label": tr("window-pick-preview") }),
      ),
      marked,
      el("p", { class: "pick-keys", text: tr(state.multi ? "window-pick-keys-many" : "window-pick-keys-one") }),
    );
    if (state.multi) for (const path of saved.selected || []) toggle(marked, path);
    search.oninput = () => find(fs);
    hidden.onchange = () => find(fs);
    search.onkeydown = (e) => {
      const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
      if (step) move(fs, state.at + step);
      else if (e.key === " " && state.multi && state.found[state.at]) toggle(marked, state.found[state.at].path);
      else if (e.key === "Enter") {
        const form = /** @type {HTMLFormElement} */ (fs.form);
        if (form) submit(form);
      } else return;
      e.preventDefault();
      e.stopPropagation();
    };
    find(fs);
  },
  actions(form, view, actions) {
    actions.append(el("button", { type: "submit", class: "primary", text: tr("window-pick-submit") }));
  },
  submit: (form) => submit(form),
};

// Sends the marked paths; with none marked, the one under the cursor.
/** @param {HTMLFormElement} form */
function submit(form) {
  const fs = /** @type {HTMLFieldSetElement | null} */ (form.querySelector("fieldset.question"));
  const state = fs && picks.get(fs);
  if (!fs || !state) return;
  if (fs.querySelector("input.choice:checked")) return send(form);
  const here = state.found[state.at];
  if (!here) {
    errorLine(form).textContent = tr("window-pick-none");
    return;
  }
  return send(form, { qid: state.qid, label: here.path });
}

// Asks Rust for the best paths of what is typed; an answer to an earlier keystroke
// that comes late is dropped.
/** @param {HTMLFieldSetElement} fs */
async function find(fs) {
  const state = picks.get(fs);
  if (!state) return;
  const query = /** @type {HTMLInputElement} */ (fs.querySelector("input.pick-search")).value;
  const hidden = /** @type {HTMLInputElement} */ (fs.querySelector("input.pick-hidden")).checked;
  const asked = ++state.asked;
  try {
    const found = await commands.findPaths(state.ask, state.qid, query, hidden);
    if (asked !== state.asked) return;
    state.found = found.paths;
    state.at = 0;
    /** @type {HTMLElement} */ (fs.querySelector(".pick-count")).textContent = found.count;
    show(fs);
    preview(fs);
  } catch (thrown) {
    const form = fs.form;
    const e = /** @type {Partial<UiError> | null} */ (thrown);
    if (form) errorLine(form).textContent = e && e.message ? e.message : String(e);
  }
}

// The results, the matched letters in bold, the one under the cursor and the marked
// ones shown as such.
/** @param {HTMLFieldSetElement} fs */
function show(fs) {
  const state = picks.get(fs);
  const list = /** @type {HTMLElement} */ (fs.querySelector(".pick-results"));
  if (!state) return;
  const marked = new Set(
    [.../** @type {NodeListOf<HTMLInputElement>} */ (fs.querySelectorAll("input.choice:checked"))].map((i) => i.value),
  );
  list.replaceChildren(
    ...state.found.map((f, i) => {
      const chars = Array.from(f.path);
      const at = new Set(f.marks);
      const item = el("li", {
        role: "option",
        class: "pick-path",
        "aria-selected": String(i === state.at),
        onclick: () => move(fs, i),
        onmousedown: (/** @type {MouseEvent} */ e) => {
          // A second click picks, as Enter does.
          if (e.detail === 2 && fs.form) submit(fs.form);
        },
      });
      item.dataset.path = f.path;
      if (marked.has(f.path)) item.classList.add("marked");
      // Runs of matched and unmatched characters, each as text.
      let run = "";
      let bold = false;
      chars.forEach((c, n) => {
        if (at.has(n) !== bold && run) {
          item.append(bold ? el("b", { text: run }) : run);
          run = "";
        }
        bold = at.has(n);
        run += c;
      });
      if (run) item.append(bold ? el("b", { text: run }) : run);
      return item;
    }),
  );
  list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
}

/** Puts the cursor on result `i`. @param {HTMLFieldSetElement} fs @param {number} i */
function move(fs, i) {
  const state = picks.get(fs);
  if (!state || !state.found.length) return;
  state.at = Math.max(0, Math.min(state.found.length - 1, i));
  show(fs);
  preview(fs);
}

// A look inside the path under the cursor.
/** @param {HTMLFieldSetElement} fs */
async function preview(fs) {
  const state = picks.get(fs);
  const pane = /** @type {HTMLElement} */ (fs.querySelector(".pick-preview"));
  const here = state && state.found[state.at];
  if (!state || !here) {
    pane.textContent = "";
    return;
  }
  try {
    const seen = await commands.previewPath(state.ask, state.qid, here.path);
    if (state.found[state.at] !== here) return;
    if (seen.type === "text") pane.textContent = seen.lines.join("\n") + (seen.more ? "\n…" : "");
    else if (seen.type === "folder") pane.textContent = seen.names.join("\n") + (seen.more ? "\n…" : "");
    else pane.textContent = seen.said;
  } catch {
    pane.textContent = "";
  }
}

// Marks `path`, or takes its mark away: a checked box of the form, as every choice is.
/** @param {HTMLElement} marked @param {string} path */
function toggle(marked, path) {
  const box = [.../** @type {NodeListOf<HTMLInputElement>} */ (marked.querySelectorAll("input.choice"))].find(
    (i) => i.value === path,
  );
  if (box) unmark(box);
  else {
    const input = el("input", { type: "checkbox", class: "choice", value: path });
    input.checked = true;
    input.onchange = () => unmark(input);
    marked.append(el("label", { class: "pick-chip" }, input, el("span", { text: path })));
  }
  changed(marked);
}

/** @param {HTMLInputElement} box */
function unmark(box) {
  const marked = /** @type {HTMLElement} */ (box.closest(".pick-marked"));
  const chip = box.closest("label");
  if (chip) recycle(chip);
  changed(marked);
}

// The list shows the marks again, and the form keeps its draft as for any input.
/** @param {HTMLElement} marked */
function changed(marked) {
  const fs = /** @type {HTMLFieldSetElement | null} */ (marked.closest("fieldset"));
  if (!fs) return;
  show(fs);
  fs.dispatchEvent(new Event("input", { bubbles: true }));
}
