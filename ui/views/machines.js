// @ts-check
// The Machines view: this machine's circle of the relay (`userq relay`), whether its
// broker is reached, each machine and when it was last heard from, and an invite for
// one more as a code and a QR code; and the Matrix bridge (`userq matrix`): its
// homeserver, its room and rule, each member and whether their identity is as first
// seen. It owns one piece of state: `shown`, the number of the latest load, so a slow
// answer from the broker or the homeserver never paints over a newer one.

import { commands } from "../bridge.js";
import { byId, el } from "../dom.js";
import { tr } from "../text.js";

let shown = 0;

/**
 * What `call` brings for load `mine`, saying `checking` in `connection` meanwhile;
 * null when it failed (its error said there) or a newer load began.
 * @template T
 * @param {number} mine @param {HTMLElement} connection @param {string} checking
 * @param {() => Promise<T>} call @returns {Promise<T | null>}
 */
async function fetched(mine, connection, checking, call) {
  connection.textContent = tr(checking);
  connection.className = "connection";
  try {
    const got = await call();
    return mine === shown ? got : null;
  } catch (e) {
    if (mine === shown) connection.textContent = /** @type {UiError} */ (e).message;
    return null;
  }
}

/** @param {number} mine the load this is */
async function load(mine) {
  const connection = byId("machines-connection");
  const circle = await fetched(mine, connection, "window-machines-checking", commands.relayStatus);
  if (!circle) return;
  byId("machines-unpaired").hidden = circle.paired;
  byId("machines-circle").hidden = !circle.paired;
  connection.textContent = circle.connectionLabel;
  connection.classList.toggle("down", !circle.connected);
  byId("machines-list").replaceChildren(
    ...circle.machines.map((m) =>
      el(
        "li",
        { class: m.thisMachine ? "machine this" : "machine" },
        el("span", { class: "name", text: m.name }),
        el("span", { class: "seen", text: m.seenLabel }),
      ),
    ),
  );
}

/** @param {number} mine the load this is */
async function loadMatrix(mine) {
  const connection = byId("matrix-connection");
  const bridge = await fetched(mine, connection, "window-matrix-checking", commands.matrixStatus);
  if (!bridge) return;
  byId("matrix-none").hidden = bridge.setUp;
  byId("matrix-bridge").hidden = !bridge.setUp;
  connection.hidden = !bridge.setUp;
  connection.textContent = bridge.connectionLabel;
  connection.classList.toggle("down", !bridge.connected);
  byId("matrix-room").textContent = bridge.roomLabel;
  byId("matrix-rule").textContent = bridge.ruleLabel;
  byId("matrix-members").replaceChildren(
    ...bridge.members.map((m) =>
      el(
        "li",
        { class: m.changed ? "member changed" : "member" },
        el("span", { class: "name", text: m.user }),
        el("span", { class: "seen", text: `${m.roleLabel} · ${m.identityLabel}` }),
      ),
    ),
  );
}

async function invite() {
  const box = byId("machines-invite-box");
  try {
    /** @type {InviteView} */
    const made = await commands.relayInvite();
    box.replaceChildren(
      el("img", { class: "qr", src: made.qr, alt: "" }),
      el("code", { class: "invite-code", text: made.code }),
      el("p", { class: "hint", text: made.howLabel }),
    );
  } catch (e) {
    box.replaceChildren(el("p", { class: "notice", text: /** @type {UiError} */ (e).message }));
  }
  box.hidden = false;
}

byId("machines-invite").onclick = invite;

/** The view, for the registry. */
export const view = {
  name: "machines",
  show: () => {
    byId("machines-invite-box").hidden = true;
    const mine = ++shown;
    return Promise.all([load(mine), loadMatrix(mine)]);
  },
};
