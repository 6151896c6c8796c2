// @ts-check
// Building elements, and taking them apart again for reuse.
// Elements are recycled: WebKitGTK keeps memory for every form control it has painted
// and dropped (about 20 KiB per question measured over 10,000 questions), but none
// for a control painted again. A form that leaves is taken apart into a pool, with
// every attribute, handler and state removed, and the next forms are built from it.
const pool = new Map(); // tag name -> detached, blank elements
const HANDLERS = ["onclick", "onsubmit", "oninput"];

export function recycle(node) {
  for (const child of [...node.children]) recycle(child);
  node.remove();
  node.replaceChildren();
  while (node.attributes.length) node.removeAttribute(node.attributes[0].name);
  for (const h of HANDLERS) node[h] = null;
  if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
    node.value = "";
    if (node instanceof HTMLInputElement) node.checked = false;
  }
  // An option keeps its selectedness apart from its attributes: reused unreset, it
  // would come back picked in another select.
  if (node instanceof HTMLOptionElement) node.selected = node.defaultSelected = false;
  const tag = node.localName;
  if (!pool.has(tag)) pool.set(tag, []);
  pool.get(tag).push(node);
}

export function el(tag, props = {}, ...children) {
  const node = (pool.get(tag) && pool.get(tag).pop()) || document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}
