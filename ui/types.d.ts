// The shapes the page keeps of its own, and the Tauri globals it uses. What Rust
// sends is declared in bindings.d.ts, generated from the Rust types.

/** What the person has typed so far into one question. */
interface QuestionDraft {
  selected: string[];
  custom: string;
  skip: boolean;
}

/** A draft: question id -> what was typed. Rust keeps it as it came. */
type Draft = Record<string, QuestionDraft>;

interface Window {
  __TAURI__: {
    core: { invoke<T = unknown>(cmd: string, args?: Record<string, unknown> | Uint8Array): Promise<T> };
    event: { listen<T = unknown>(event: string, handler: (e: { payload: T }) => void): Promise<() => void> };
  };
}

/** How one presentation of an ask builds its form (ui/form/): each question's body, the
 * form's buttons, and what Enter sends. */
interface FormPresentation {
  body(view: ListedAsk, q: QuestionView, saved: Partial<QuestionDraft>, fs: HTMLFieldSetElement): void;
  actions(form: HTMLFormElement, view: ListedAsk, actions: HTMLElement): void;
  submit(form: HTMLFormElement, view: ListedAsk): unknown;
}
