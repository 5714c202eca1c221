import { bool, isRecord, str } from '../internal/guards.js';
import type { CallInput, InputQuestion, InputTodo } from './call-input.js';

/*
 * Helpers every adapter's `typeInput` uses: each adapter reads its own argument names, these build the shared
 * shapes. Internal to core: the public API does not re-export them.
 */

/** A `CallInput` being built; `compactInput` makes it one. */
export type CallInputDraft = { -readonly [K in keyof CallInput]: CallInput[K] | undefined };

/** The input without its undefined fields: absent, never undefined (JSON and `exactOptionalPropertyTypes`). */
export function compactInput(draft: CallInputDraft): CallInput {
  const out: Record<string, unknown> = {};
  // `for…in` over the draft (an object literal) is its keys in `Object.entries`' order, without an array per entry.
  for (const key in draft) {
    const value = draft[key as keyof CallInputDraft];
    if (value !== undefined) out[key] = value;
  }
  return out as CallInput;
}

/** A todo list or plan: each item's text by the agent's own field names (first one set wins). */
export function inputTodos(value: unknown, textFields: readonly string[]): InputTodo[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((item) => {
    const o = isRecord(item) ? item : {};
    const id = str(o.id);
    return {
      // a bare string among the items (a malformed list) is its text, not an empty item
      content: str(item) ?? textFields.map((field) => str(o[field])).find((text) => text !== undefined) ?? '',
      status: str(o.status) ?? 'pending',
      ...(id === undefined ? {} : { id }),
    };
  });
}

/** Questions put to the user, as agents write them: `question`, `header`, `multiSelect`, `options[{label, description}]`. */
export function inputQuestions(value: unknown): InputQuestion[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((q) => {
    const o = isRecord(q) ? q : {};
    const header = str(o.header);
    const multiSelect = bool(o.multiSelect);
    return {
      question: str(o.question) ?? '',
      ...(header === undefined ? {} : { header }),
      ...(multiSelect === undefined ? {} : { multiSelect }),
      options: (Array.isArray(o.options) ? o.options : []).map((opt) => {
        const p = isRecord(opt) ? opt : {};
        const description = str(p.description);
        return { label: str(p.label) ?? '', ...(description === undefined ? {} : { description }) };
      }),
    };
  });
}

/** The number of lines a read covers from its first and last line (both counted), when both are known. */
export function lineSpan(first: number | undefined, last: number | undefined): number | undefined {
  return first !== undefined && last !== undefined && last >= first ? last - first + 1 : undefined;
}
