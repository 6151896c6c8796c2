// @ts-check
// Building elements, and taking them apart again for reuse.
//
// Elements are recycled: WebKitGTK keeps memory for every form control it has painted
// and dropped (about 20 KiB per question measured over 10,000 questions), but none
// for a control painted again. A form that leaves is taken apart into a pool, with
// every attribute, handler and state removed, and the next forms are built from it.
//
// State it owns: `pool`, the detached blank elements by tag name.

/** @type {Map<string, Element[]>} */
const pool = new Map();
const HANDLERS = /** @type {const} */ ([
  "onclick",
  "onsubmit",
  "oninput",
  "onchange",
  "onmousedown",
  "onmouseup",
  "onkeyup",
  "onkeydown",
]);

/** Takes `node` and everything in it apart, into the pool. @param {Element} node */
export function recycle(node) {
  for (const child of [...node.children]) recycle(child);
  node.remove();
  node.replaceChildren();
  while (node.attributes.length) node.removeAttribute(node.attributes[0].name);
  if (node instanceof HTMLElement) for (const h of HANDLERS) node[h] = null;
  if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
    node.value = "";
    if (node instanceof HTMLInputElement) node.checked = false;
  }
  // An option keeps its selectedness apart from its attributes: reused unreset, it
  // would come back picked in another select.
  if (node instanceof HTMLOptionElement) node.selected = node.defaultSelected = false;
  const tag = node.localName;
  const blank = pool.get(tag) || [];
  blank.push(node);
  pool.set(tag, blank);
}

/**
 * An element from the pool (or a new one) with `props` set: `class`, `text`, any
 * property the element has, else an attribute; then `children`, nulls left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [props]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = /** @type {HTMLElementTagNameMap[K]} */ (pool.get(tag)?.pop() || document.createElement(tag));
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = String(v);
    else if (k === "text") node.textContent = String(v);
    else if (k in node) /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (node))[k] = v;
    else node.setAttribute(k, String(v));
  }
  node.append(.../** @type {(Node | string)[]} */ (children.filter((c) => c != null && c !== false)));
  return node;
}

/**
 * The page's element with this id; a page without it is a broken page.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * Fills a picker with its choices, the one in force selected.
 * @param {HTMLSelectElement} picker
 * @param {{value: string, label: string}[]} choices
 * @param {string} current
 */
export function fillPicker(picker, choices, current) {
  picker.replaceChildren(
    ...choices.map((c) => {
      const o = document.createElement("option");
      o.value = c.value;
      o.textContent = c.label;
      o.selected = c.value === current;
      return o;
    }),
  );
}
