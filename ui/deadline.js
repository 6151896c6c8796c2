// @ts-check
// The deadline picker in the bar: what happens to a question nobody answers (wait for
// the person, or deny after a while). Its choices come worded from Rust; a choice is
// kept in the settings the service reads at each question.

import { commands } from "./bridge.js";
import { byId } from "./dom.js";

const picker = /** @type {HTMLSelectElement} */ (byId("deadline"));

/** @param {DeadlineView} view */
function fill(view) {
  picker.replaceChildren(
    ...view.choices.map((c) => {
      const o = document.createElement("option");
      o.value = c.value;
      o.textContent = c.label;
      o.selected = c.value === view.current;
      return o;
    }),
  );
}

/** Reads the picker again (at start, and in a new language). */
export async function showDeadline() {
  fill(await commands.deadlineView());
}

picker.addEventListener("change", () => {
  commands.setDeadline(picker.value).then(fill, () => showDeadline());
});
