// @ts-check
// The question window: a view of the asks Rust holds. It reads them with commands,
// hears of changes through events, and answers with commands. Every string from an
// agent goes in as text; only the detail comes as HTML, rendered and sanitized in Rust.
// Every word of its own comes from Rust's catalogs (crates/i18n/locales): labels by id
// through tr(), counts and other worded values already formatted in the list.

const { invoke } = window.__TAURI__.core;
const { listen } = window.__TAURI__.event;

const empty = document.getElementById("empty");
const forms = new Map(); // ask id -> form element

/** @type {Record<string, string>} message id -> text in the person's language */
let messages = {};
/** @param {string} id */
const tr = (id) => messages[id] || id;

// Loads the window's words and puts them on the page's own elements: `data-tr` for
// text, `data-tr-placeholder` and `data-tr-label` for those attributes.
async function loadText() {
  /** @type {UiText} */
  const text = await invoke("ui_text");
  messages = text.messages;
  document.documentElement.lang = text.lang;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-tr]")))
    node.textContent = tr(node.dataset.tr || "");
  for (const node of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("[data-tr-placeholder]")))
    node.placeholder = tr(node.dataset.trPlaceholder || "");
  const picker = /** @type {HTMLSelectElement} */ (document.getElementById("language"));
  picker.replaceChildren(
    ...text.languages.map((l) => {
      const o = document.createElement("option");
      o.value = l.tag;
      o.textContent = l.name;
      o.selected = l.tag === text.lang;
      return o;
    }),
  );
}

// Elements are recycled: WebKitGTK keeps memory for every form control it has painted
// and dropped (about 20 KiB per question measured over 10,000 questions), but none
// for a control painted again. A form that leaves is taken apart into a pool, with
// every attribute, handler and state removed, and the next forms are built from it.
const pool = new Map(); // tag name -> detached, blank elements
const HANDLERS = ["onclick", "onsubmit", "oninput"];

function recycle(node) {
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

function el(tag, props = {}, ...children) {
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

// --- reading the form back -------------------------------------------------

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

/** @param {HTMLFormElement} form @returns {Draft} */
function draftOf(form) {
  /** @type {Draft} */
  const draft = {};
  for (const fs of questionsOf(form)) draft[fs.dataset.qid] = questionState(fs);
  return draft;
}

/** @param {HTMLFormElement} form */
function questionsOf(form) {
  return /** @type {NodeListOf<HTMLFieldSetElement>} */ (form.querySelectorAll("fieldset.question"));
}

/**
 * @param {HTMLFormElement} form
 * @param {{qid: string, label: string, keepText?: boolean}} [pick] a button pressed for one question
 */
function answerOf(form, pick) {
  const answers = [];
  for (const fs of questionsOf(form)) {
    const s = questionState(fs);
    const id = fs.dataset.qid;
    if (s.skip) {
      answers.push({ id, selected: [] });
      continue;
    }
    const picked = pick && pick.qid === id;
    const selected = picked ? [pick.label] : s.selected;
    /** @type {{id: string, selected: string[], custom?: string}} */
    const item = { id, selected };
    // On a permission prompt typed text is the reason to deny: it goes with Deny (or
    // alone), never with Allow.
    if (s.custom.trim() && !(picked && pick.keepText === false)) item.custom = s.custom;
    answers.push(item);
  }
  return { answers };
}

// --- acting ----------------------------------------------------------------

// Shows a command's error in the form, unless the form has moved on to another ask.
// Errors are told apart by their code, never their text: an ask that is no longer
// pending (answered elsewhere, withdrawn) only means the list is out of date.
/** @param {HTMLFormElement} form @param {string} ask @param {Partial<UiError>} e */
function showError(form, ask, e) {
  if (e && e.code === "NOT_PENDING") {
    refresh();
    return;
  }
  if (form.dataset.ask === ask) form.querySelector(".error").textContent = e && e.message ? e.message : String(e);
}

async function send(form, pick) {
  const ask = form.dataset.ask;
  form.querySelector(".error").textContent = "";
  const keep = /** @type {HTMLInputElement | null} */ (form.querySelector("input.remember"));
  const whom = /** @type {HTMLSelectElement | null} */ (form.querySelector("select.remember-for"));
  const remember = keep && keep.checked ? (whom ? whom.value : "everyone") : null;
  try {
    await invoke("answer_question", { ask, answer: answerOf(form, pick), remember });
  } catch (e) {
    showError(form, ask, e);
  }
}

async function dismiss(form) {
  const ask = form.dataset.ask;
  try {
    await invoke("dismiss_question", { ask });
  } catch (e) {
    showError(form, ask, e);
  }
}

const draftTimers = new Map(); // form -> its pending save; dropped in forget()
function saveDraft(form) {
  clearTimeout(draftTimers.get(form));
  draftTimers.set(
    form,
    setTimeout(() => {
      draftTimers.delete(form);
      invoke("save_draft", { ask: form.dataset.ask, draft: draftOf(form) }).catch(() => {});
    }, 200),
  );
}

// A form whose ask ended: its pending draft is dropped with it, and its elements
// go back to the pool.
function forget(form) {
  clearTimeout(draftTimers.get(form));
  draftTimers.delete(form);
  recycle(form);
}

// --- building a form -------------------------------------------------------

function detailNode(q, cls) {
  if (!q.detailHtml) return null;
  const node = el("div", { class: cls });
  node.innerHTML = q.detailHtml; // sanitized by ammonia in Rust
  return node;
}

// A revised plan: what the person said of the last version, and what changed since.
/** @param {Revision} revision */
function revisionNode(revision) {
  const diff = el("div", { class: "detail diff" });
  diff.innerHTML = revision.diffHtml; // sanitized by ammonia in Rust
  return el(
    "section",
    { class: "revision" },
    el("h3", { text: tr("window-revision-title") }),
    revision.feedback
      ? el(
          "p",
          { class: "feedback-given" },
          el("strong", { text: tr("window-revision-feedback") }),
          " ",
          revision.feedback,
        )
      : null,
    diff,
  );
}

/** @param {AskView} view @param {QuestionView} q @param {Draft | null} draft */
function questionNode(view, q, draft) {
  const fs = el("fieldset", { class: "question" });
  fs.dataset.qid = q.id;
  /** @type {Partial<QuestionDraft>} */
  const saved = (draft && draft[q.id]) || {};
  fs.append(el("legend", { class: "header", text: q.header || "" }));
  fs.append(el("p", { class: "text", text: q.question }));
  const planned = view.presentation === "planReview";
  if (planned && view.revision) fs.append(revisionNode(view.revision));
  const detail = detailNode(q, q.planReview ? "detail plan" : "detail");
  if (detail) fs.append(detail);
  if (view.presentation === "permission") {
    const reason = el("input", {
      type: "text",
      class: "other reason",
      "aria-label": tr("window-reason"),
      placeholder: tr("window-reason"),
    });
    reason.value = saved.custom || "";
    fs.append(el("label", { class: "reason" }, el("span", { text: tr("window-reason-hint") }), reason));
    return fs;
  }
  if (planned) {
    const feedback = el("textarea", {
      class: "feedback",
      "aria-label": tr("window-feedback"),
      placeholder: tr("window-feedback-placeholder"),
    });
    feedback.value = saved.custom || "";
    fs.append(feedback);
    return fs;
  }
  if (q.options.length) {
    const list = el("div", { class: "options", role: q.multiSelect ? "group" : "radiogroup" });
    q.options.forEach((o, i) => {
      const shown = q.shownOptions[i] || o;
      const input = el("input", {
        type: q.multiSelect ? "checkbox" : "radio",
        class: "choice",
        name: `${view.ask}:${q.id}`,
        value: o.label,
      });
      input.checked = (saved.selected || []).includes(o.label);
      list.append(
        el(
          "label",
          { class: "option" },
          input,
          el("span", { class: "num", text: i < 9 ? String(i + 1) : "" }),
          el("span", { class: "label-text", text: shown.label }),
          shown.description ? el("span", { class: "desc", text: shown.description }) : null,
        ),
      );
    });
    fs.append(list);
  }
  const other = el("input", {
    type: "text",
    class: "other",
    "aria-label": tr("window-other"),
    placeholder: q.options.length ? tr("window-other-placeholder") : tr("window-your-answer"),
  });
  other.value = saved.custom || "";
  fs.append(other);
  const skip = el("input", { type: "checkbox", class: "skip" });
  skip.checked = !!saved.skip;
  fs.append(el("label", { class: "skip" }, skip, tr("window-skip")));
  return fs;
}

// An option's label as the person sees it: the product's own labels (Allow, Approve…)
// in the person's language. What is sent is always the label itself.
/** @param {QuestionView} q @param {string} label */
function shownLabel(q, label) {
  const i = q.options.findIndex((o) => o.label === label);
  return i >= 0 && q.shownOptions[i] ? q.shownOptions[i].label : label;
}

/** @param {ListedAsk} view @returns {HTMLFormElement} */
function formFor(view) {
  const form = el("form", { class: "ask", tabIndex: -1 });
  form.dataset.ask = view.ask;
  form.dataset.agent = view.agent ? view.agent.id : "";
  form.setAttribute("aria-label", view.questions[0].header || view.questions[0].question);
  form.append(originNode(view));
  for (const q of view.questions) form.append(questionNode(view, q, view.draft));
  const actions = el("div", { class: "actions" });
  const only = view.questions[0];
  if (view.presentation === "permission") {
    form.classList.add("buttons");
    const approve = only.intent.approve;
    const deny = only.options[only.options.length - 1].label;
    only.options.forEach((o, i) => {
      const shown = only.shownOptions[i] || o;
      const cls = o.label === approve ? "primary approve" : o.label === deny ? "deny" : "option-button";
      const keepText = o.label === deny;
      actions.append(
        el("button", {
          type: "button",
          class: cls,
          text: shown.label,
          title: shown.description || "",
          onclick: () => send(form, { qid: only.id, label: o.label, keepText }),
        }),
      );
    });
  } else if (view.presentation === "planReview") {
    form.classList.add("buttons");
    const approve = only.intent.approve;
    actions.append(
      el("button", {
        type: "button",
        class: "primary approve",
        text: shownLabel(only, approve),
        onclick: () => send(form, { qid: only.id, label: approve }),
      }),
    );
    for (const o of only.options.filter((o) => o.label !== approve)) {
      actions.append(
        el("button", {
          type: "button",
          class: "option-button",
          text: shownLabel(only, o.label),
          onclick: () => send(form, { qid: only.id, label: o.label }),
        }),
      );
    }
  } else {
    actions.append(el("button", { type: "submit", class: "primary", text: tr("window-submit") }));
  }
  if (view.canRemember) actions.append(rememberNode(view));
  actions.append(
    el("button", { type: "button", class: "dismiss", text: tr("window-dismiss"), onclick: () => dismiss(form) }),
  );
  actions.append(el("div", { class: "error", role: "alert" }));
  form.append(actions);
  form.onsubmit = (e) => {
    e.preventDefault();
    send(form);
  };
  form.oninput = (e) => {
    if (e.target.classList.contains("skip"))
      e.target
        .closest("fieldset")
        .querySelectorAll(".choice, .other")
        .forEach((i) => {
          i.disabled = e.target.checked;
        });
    saveDraft(form);
  };
  return form;
}

// "Remember this answer", for this client or for every client: the next time the
// same question comes, it is answered at once.
/** @param {ListedAsk} view */
function rememberNode(view) {
  const box = el(
    "label",
    { class: "remember" },
    el("input", { type: "checkbox", class: "remember" }),
    tr("window-remember"),
  );
  if (!view.rememberClient) return box;
  const whom = el(
    "select",
    { class: "remember-for", "aria-label": tr("window-remember") },
    el("option", { value: "client", text: view.rememberClient }),
    el("option", { value: "everyone", text: tr("window-remember-everyone") }),
  );
  return el("span", { class: "remember-group" }, box, whom);
}

// Who asks, in which project and session: one line above each ask.
/** @param {ListedAsk} view */
function originNode(view) {
  const c = view.context || {};
  const by = c.source || (view.agent && view.agent.client) || "";
  const line = el("p", { class: "origin" });
  if (by) line.append(el("span", { class: "source", text: by }));
  if (c.project) line.append(el("span", { class: "project", text: baseName(c.project), title: c.project }));
  if (c.session) line.append(el("span", { class: "session", text: view.sessionLabel || "", title: c.session }));
  if (view.agent) line.append(el("span", { class: "agent-id", text: view.agent.id }));
  return line;
}

function baseName(path) {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : path;
}

// --- the list --------------------------------------------------------------

// The inbox: a side list of what waits, in groups (an agent session, or an agent,
// decided and worded in Rust), oldest first; the selected question on the right, full
// size. Every form stays in the page, hidden unless selected, so drafts and focus
// survive moving between questions.
const side = /** @type {HTMLElement} */ (document.getElementById("waiting"));
const pane = /** @type {HTMLElement} */ (document.getElementById("selected"));
/** @type {string[]} the asks in the order of the side list */
let order = [];
/** @type {string | null} */
let selected = null;
/** Whether the person has picked a question yet; until then the oldest is shown. */
let picked = false;
// WebKit keeps what a long run of questions used until the page is loaded again, so
// after `renewAfter` questions (from Rust) the page asks to be loaded again, in a new
// page process, the next time nothing waits and the question list is in view: nothing
// is lost, nothing shows.
let built = 0;
let renewAfter = Infinity;
let renewing = false;

function renew() {
  if (renewing) return;
  renewing = true;
  invoke("renew_page").catch(() => location.reload());
}

/** @param {GroupView} g @returns {HTMLElement} */
function groupFor(g) {
  let group = /** @type {HTMLElement[]} */ ([...side.querySelectorAll("section.agent")]).find(
    (s) => s.dataset.agent === g.key,
  );
  if (!group) {
    const title = el(
      "h2",
      {},
      el("span", { class: "id", text: g.name }),
      el("span", { class: "client", text: g.client }),
      el("span", { class: "depth", text: g.detail }),
      el("span", { class: "n" }),
    );
    group = el("section", { class: "agent" }, title, el("ol", { class: "items" }));
    group.dataset.agent = g.key;
    side.append(group);
  }
  group.querySelector(".n").textContent = g.countLabel;
  return group;
}

/** The side list's line for an ask: its header and question, and how many more it holds. */
function itemFor(view) {
  const q = view.questions[0];
  const more = view.questions.length > 1 ? ` +${view.questions.length - 1}` : "";
  const button = el(
    "button",
    { type: "button", class: "item", onclick: () => focusAsk(view.ask) },
    q.header ? el("span", { class: "header", text: q.header }) : null,
    el("span", { class: "title", text: q.question + more }),
  );
  button.dataset.ask = view.ask;
  return el("li", {}, button);
}

// One refresh at a time; changes that arrive meanwhile are folded into one more.
let refreshing = null;
let again = false;
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = render().finally(() => {
    refreshing = null;
    if (again) {
      again = false;
      refresh();
    }
  });
  return refreshing;
}

async function render() {
  apply(/** @type {ListView} */ (await invoke("list_questions")));
}

/** @param {ListView} view */
function apply(view) {
  const list = view.asks;
  const groups = new Map(view.groups.map((g) => [g.key, groupFor(g)]));
  const live = new Set(list.map((v) => v.ask));
  for (const [ask, form] of forms) {
    if (!live.has(ask)) {
      forget(form);
      forms.delete(ask);
      const item = side.querySelector(`button.item[data-ask="${CSS.escape(ask)}"]`);
      if (item) recycle(/** @type {HTMLElement} */ (item.parentElement));
    }
  }
  // Each group in the order the asks were received: an ask can reach the window
  // after a later one, so new lines are placed, not appended.
  const last = new Map();
  for (const view of list) {
    if (!forms.has(view.ask)) {
      const form = formFor(view);
      built++;
      form.hidden = true;
      forms.set(view.ask, form);
      pane.append(form);
    }
    const group = groups.get(view.group);
    const items = group.querySelector("ol.items");
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
  const before = order;
  order = [...side.querySelectorAll("button.item")].map((b) => /** @type {HTMLElement} */ (b).dataset.ask || "");
  // The oldest is shown until the person picks one; a picked question, once answered,
  // gives way to the one after it in the list (the one before, when it was the last).
  let kept = order[0] || null;
  const at = selected ? before.indexOf(selected) : -1;
  if (picked && selected && live.has(selected)) kept = selected;
  else if (picked && at >= 0) kept = before.slice(at).find((a) => live.has(a)) || order[order.length - 1] || null;
  select(kept, false);
  empty.hidden = list.length > 0;
  if (!list.length && built >= renewAfter && !document.getElementById("questions").hidden) renew();
  document.getElementById("count").textContent = view.waiting;
  document.title = view.title;
}

/** Shows `ask` on the right, and marks its line; with `focus`, the focus moves in. */
function select(ask, focus) {
  selected = ask;
  for (const [a, form] of forms) {
    form.hidden = a !== ask;
    form.classList.toggle("focused", a === ask);
  }
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (side.querySelectorAll("button.item"))) {
    if (item.dataset.ask === ask) {
      item.setAttribute("aria-current", "true");
      item.scrollIntoView({ block: "nearest" });
    } else item.removeAttribute("aria-current");
  }
  const form = ask && forms.get(ask);
  if (form && focus) (form.querySelector("input.choice, textarea, input.other, button") || form).focus();
}

function focusAsk(ask) {
  if (!forms.has(ask)) return;
  picked = true;
  select(ask, true);
}

/** @returns {HTMLFormElement | null} */
function currentForm() {
  const active = document.activeElement && document.activeElement.closest("form.ask");
  return /** @type {HTMLFormElement | null} */ (active || (selected && forms.get(selected)) || null);
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    e.preventDefault();
    invoke("hide_window");
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
    const next = order[Math.min(order.length - 1, Math.max(0, order.indexOf(form.dataset.ask || "") + step))];
    if (next) focusAsk(next);
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
async function relabel() {
  const focused = currentForm();
  const ask = focused && focused.dataset.ask;
  await Promise.all(
    [...forms.values()].map((form) => {
      clearTimeout(draftTimers.get(form));
      return invoke("save_draft", { ask: form.dataset.ask, draft: draftOf(form) }).catch(() => {});
    }),
  );
  await loadText();
  /** @type {ListView} */
  const view = await invoke("list_questions");
  // Taken apart and built again in one go: the page is never seen empty.
  for (const form of forms.values()) forget(form);
  forms.clear();
  for (const group of [...side.querySelectorAll("section.agent")]) recycle(group);
  selected = ask || null;
  apply(view);
  if (ask) focusAsk(ask);
}

document.getElementById("language").addEventListener("change", (e) => {
  const lang = /** @type {HTMLSelectElement} */ (e.target).value;
  invoke("set_language", { lang }).catch(() => loadText());
});

// --- the History and Remembered views -----------------------------------------

/** @type {number | null} */
let historyNext = null;

/** @param {boolean} more */
async function loadHistory(more) {
  const list = document.getElementById("history-list");
  const search = /** @type {HTMLInputElement} */ (document.getElementById("history-search")).value;
  /** @type {HistoryPage} */
  const page = await invoke("history_page", { search, before: more ? historyNext : null });
  if (!more) list.replaceChildren();
  for (const item of page.items) list.append(historyNode(item));
  historyNext = page.next;
  document.getElementById("history-more").hidden = page.next == null;
  document.getElementById("history-empty").hidden = list.children.length > 0;
}

/** @param {HistoryItem} item */
function historyNode(item) {
  const node = el(
    "li",
    { class: item.answered ? "entry answered" : "entry ended" },
    el("p", { class: "text", text: item.question }),
    el("p", { class: "outcome", text: item.outcome }),
    el(
      "p",
      { class: "origin" },
      el("span", { class: "source", text: item.client || "" }),
      el("span", { class: "agent-id", text: item.agent || "" }),
      el("time", { text: new Date(item.askedAt).toLocaleString(document.documentElement.lang), title: item.askedAt }),
      el("span", { class: "waited", text: item.waited }),
      el("span", { class: "by", text: item.byLabel || "" }),
    ),
  );
  if (item.planHtml) {
    const plan = el("div", { class: "detail plan" });
    plan.innerHTML = item.planHtml; // sanitized by ammonia in Rust
    node.append(el("details", {}, el("summary", { text: tr("window-history-plan") }), plan));
  }
  return node;
}

async function loadRules() {
  /** @type {RuleView[]} */
  const rules = await invoke("list_rules");
  const list = document.getElementById("rules-list");
  list.replaceChildren(
    ...rules.map((r) =>
      el(
        "li",
        { class: "rule" },
        el("p", { class: "text", text: r.question }),
        el("p", { class: "outcome", text: `→ ${r.answer}` }),
        el(
          "p",
          { class: "origin" },
          el("span", { class: "source", text: r.clientLabel }),
          el("span", { class: "uses", text: r.usesLabel }),
          el("button", {
            type: "button",
            class: "dismiss",
            text: tr("window-rules-forget"),
            onclick: () => invoke("remove_rule", { id: r.id }).then(loadRules, loadRules),
          }),
        ),
      ),
    ),
  );
  document.getElementById("rules-empty").hidden = rules.length > 0;
}

/** @param {string} name */
function showView(name) {
  for (const tab of document.querySelectorAll("nav.tabs button"))
    tab.setAttribute("aria-selected", String(/** @type {HTMLElement} */ (tab).dataset.view === name));
  for (const view of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".view")))
    view.hidden = view.id !== name;
  document.querySelector(".shortcuts").toggleAttribute("hidden", name !== "questions");
  if (name === "history") loadHistory(false);
  if (name === "rules") loadRules();
}

for (const tab of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("nav.tabs button")))
  tab.onclick = () => showView(tab.dataset.view || "questions");
let searchTimer = 0;
document.getElementById("history-search").oninput = () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => loadHistory(false), 150);
};
document.getElementById("history-more").onclick = () => loadHistory(true);

// A history that cannot be kept, or cannot be written for now (a full disk), never
// stops a question; the person is told why, for as long as it lasts.
/** @param {HistoryProblem | null} why */
function showHistoryProblem(why) {
  const problem = /** @type {HTMLElement} */ (document.getElementById("history-problem"));
  problem.hidden = !why;
  const title = /** @type {HTMLElement} */ (problem.querySelector("strong"));
  title.dataset.tr = why && why.paused ? "window-history-paused" : "window-history-off";
  title.textContent = tr(title.dataset.tr);
  /** @type {HTMLElement} */ (problem.querySelector(".why")).textContent = why ? why.why : "";
}

listen("questions-changed", () => refresh());
listen("history-problem", (e) => showHistoryProblem(/** @type {HistoryProblem | null} */ (e.payload)));
listen("language-changed", () => relabel());
listen("focus-question", (e) => refresh().then(() => focusAsk(e.payload)));
listen("do-not-disturb", (e) => {
  document.getElementById("dnd").hidden = !e.payload;
});

(async () => {
  await loadText();
  await refresh();
  /** @type {Status} */
  const status = await invoke("status");
  document.getElementById("dnd").hidden = !status.doNotDisturb;
  showHistoryProblem(status.historyProblem);
  renewAfter = status.renewAfter;
  if (status.focus) focusAsk(status.focus);
})();
