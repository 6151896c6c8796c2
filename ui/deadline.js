// @ts-check
// The deadline picker in the bar: what happens to a question nobody answers (wait for
// the person, or deny after a while). Its choices come worded from Rust; a choice is
// kept in the settings the service reads at each question.

import { commands } from "./bridge.js";
import { byId, fillPicker } from "./dom.js";

const picker = /** @type {HTMLSelectElement} */ (byId("deadline"));

/** @param {DeadlineView} view */
const fill = (view) => fillPicker(picker, view.choices, view.current);

/** Reads the picker again (at start, and in a new language). */
export async function showDeadline() {
  fill(await commands.deadlineView());
}

picker.addEventListener("change", () => {
  commands.setDeadline(picker.value).then(fill, () => showDeadline());
});
