// @ts-check
// Pictures in feedback: an image pasted or dropped into any text box of a question (a
// plan's feedback, a code comment, a typed answer) is kept by Rust under the data
// folder (save_picture, which checks its bytes are a picture), the box gets a line
// naming its file for the agent to read, and a thumbnail shows beside it. The
// thumbnail is the pasted blob itself; the page reads no file.

import { commands } from "./bridge.js";
import { el } from "./dom.js";
import { tr } from "./text.js";

/** @param {EventTarget | null} t @returns {HTMLInputElement | HTMLTextAreaElement | null} */
function textBox(t) {
  if (!(t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type === "text"))) return null;
  return t.closest("form.ask") ? t : null;
}

/** @param {HTMLInputElement | HTMLTextAreaElement} box @param {File} file */
async function keep(box, file) {
  const form = /** @type {HTMLElement} */ (box.closest("form.ask"));
  const error = /** @type {HTMLElement | null} */ (form.querySelector(".error"));
  try {
    /** @type {string} */
    const path = await commands.savePicture(new Uint8Array(await file.arrayBuffer()));
    const line = `[${tr("window-picture")}: ${path}]`;
    const at = box.selectionStart ?? box.value.length;
    box.value = `${box.value.slice(0, at)}${at > 0 && !box.value.slice(0, at).endsWith("\n") ? "\n" : ""}${line}\n${box.value.slice(at)}`;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    let strip = /** @type {HTMLElement | null} */ (box.nextElementSibling);
    if (!strip || !strip.classList.contains("pictures")) {
      strip = el("div", { class: "pictures" });
      box.after(strip);
    }
    const img = el("img", { class: "thumb", alt: path, title: path });
    img.src = URL.createObjectURL(file);
    strip.append(img);
    if (error) error.textContent = "";
  } catch (e) {
    const err = /** @type {Partial<UiError>} */ (e);
    if (error) error.textContent = err && err.message ? err.message : String(e);
  }
}

/** @param {File[]} files */
const pictures = (files) => files.filter((f) => f.type.startsWith("image/"));

document.addEventListener("paste", (e) => {
  const box = textBox(e.target);
  const files = pictures([...(e.clipboardData?.files || [])]);
  if (!box || !files.length) return;
  e.preventDefault();
  for (const f of files) keep(box, f);
});

document.addEventListener("dragover", (e) => {
  if (textBox(e.target) && e.dataTransfer?.types.includes("Files")) e.preventDefault();
});

document.addEventListener("drop", (e) => {
  const box = textBox(e.target);
  const files = pictures([...(e.dataTransfer?.files || [])]);
  if (!box || !files.length) return;
  e.preventDefault();
  for (const f of files) keep(box, f);
});
