// @ts-check
// The window's own words, from Rust's catalogs (crates/i18n/locales): labels by id
// through tr(), put on the page's static elements by loadText(); counts and other
// worded values come already formatted in the list.

import { commands } from "./bridge.js";
import { fillPicker } from "./dom.js";

/** @type {UiText["messages"]} message id -> text in the person's language */
let messages = {};

/** @param {string} id */
export const tr = (id) => messages[id] || id;

// Loads the window's words and puts them on the page's own elements: `data-tr` for
// text, `data-tr-placeholder` for placeholders; fills the language picker.
export async function loadText() {
  /** @type {UiText} */
  const text = await commands.uiText();
  messages = text.messages;
  document.documentElement.lang = text.lang;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-tr]")))
    node.textContent = tr(node.dataset.tr || "");
  for (const node of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("[data-tr-placeholder]")))
    node.placeholder = tr(node.dataset.trPlaceholder || "");
  const picker = /** @type {HTMLSelectElement} */ (document.getElementById("language"));
  fillPicker(
    picker,
    text.languages.map((l) => ({ value: l.tag, label: l.name })),
    text.lang,
  );
}
