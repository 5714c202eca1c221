/**
 * Find-in-session over a session's threads, as the API's `/find` answers it and as an HTML export answers it with no
 * server (the dashboard imports this module: it imports nothing at run time). Events are read by shape, so the
 * model's events (the server) and the API's (an export's embedded pages) both fit.
 * @module
 */
/** One match of find-in-session (`GET /api/sessions/:id/find?q=`). */
export interface FindHit {
  readonly index: number;
  readonly expand: readonly string[];
  /** The call holding the match; null for a prompt, reply, thinking or note. */
  readonly callId: string | null;
  readonly part: 'prompt' | 'text' | 'thinking' | 'tool' | 'note';
  readonly snippet: string;
}

export interface FindResponse {
  readonly query: string;
  /** Matches in all (hits holds at most 500 of them). */
  readonly total: number;
  readonly hits: readonly FindHit[];
}

/** What find reads of a tool call: its names, input, result content, and the subagent it started. */
export interface FindableItem {
  readonly kind: string;
  readonly text?: string;
  readonly thinking?: string;
  readonly id?: string;
  readonly name?: string;
  /** The name the timeline shows (a Codex `shell` call's is `exec_command`), when it is not `name`. */
  readonly canonicalName?: string;
  readonly input?: unknown;
  readonly result?: { readonly content?: unknown } | null | undefined;
  readonly subagentKey?: string | null | undefined;
}

/** What find reads of a timeline event: a prompt's text, an assistant response's items. */
export interface FindableEvent {
  readonly kind: string;
  readonly text?: string;
  readonly items?: readonly FindableItem[];
}

/** The events of the main thread (`undefined`) or of one subagent; undefined for an unknown key. */
export type FindableThreads = (key: string | undefined) => readonly FindableEvent[] | undefined;

/** The most hits one find answers with (the count says how many there are in all). */
const FIND_LIMIT = 500;

/**
 * The searchable text of a call: its names (as written and as the timeline shows it), its input and its result, as
 * JSON text where they are not strings.
 */
function callText(call: FindableItem, plainOf: (text: string) => string): string {
  // each string made plain before it is JSON: an escape written as `\u001b` in JSON text is out of reach after
  const json = (value: unknown) =>
    JSON.stringify(value, (_key, v) => (typeof v === 'string' ? plainOf(v) : withoutBinary(v)));
  const input = typeof call.input === 'string' ? call.input : json(call.input ?? '');
  const content = call.result?.content;
  const result = typeof content === 'string' ? content : content === undefined ? '' : json(content);
  const shown = call.canonicalName !== undefined && call.canonicalName !== call.name ? ` ${call.canonicalName}` : '';
  return `${call.name}${shown}\n${input}\n${result}`;
}

/**
 * A value with an image's or a file's bytes left out (an image block's `data`, a base64 `source`'s): base64 is no
 * text, and a screenshot's megabyte of it holds most short words by chance.
 */
function withoutBinary(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  if (v.kind === 'image' && typeof v.data === 'string') return { ...v, data: '' };
  if (v.type === 'base64' && typeof v.data === 'string') return { ...v, data: '' };
  return value;
}

function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 40);
  const end = Math.min(text.length, at + length + 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/**
 * A note's text as the timeline shows it (terminal control text out, tags read), or undefined for an event that is
 * not a note: given by the caller (the server's events and an export's differ in shape, and this module imports
 * nothing at run time).
 */
export type NoteTextOf = (event: FindableEvent) => string | undefined;

/**
 * Case-insensitive matches of `query` in the prompts, replies, thinking and tool calls (input and output),
 * subagents included, in timeline order: one hit per event or call that contains it, in each text as `plainOf` makes
 * it (core's `plainText`: the terminal control text out, given by the caller, as `noteTextOf` is). A hit inside a subagent is
 * placed at the main-timeline event of the Agent call that started it, with the calls to expand to reach it.
 */
export function findInThreads(
  thread: FindableThreads,
  query: string,
  noteTextOf?: NoteTextOf,
  plainOf: (text: string) => string = (text) => text,
): { hits: FindHit[]; total: number } {
  const needle = query.toLowerCase();
  const hits: FindHit[] = [];
  let total = 0;
  if (needle === '') return { hits, total };
  const add = (raw: string, where: Omit<FindHit, 'snippet'>) => {
    // matched and cut as the page shows it: terminal control text out (a colour code splits no words)
    const text = plainOf(raw);
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) return;
    total++;
    if (hits.length < FIND_LIMIT) hits.push({ ...where, snippet: snippetAround(text, at, needle.length) });
  };
  const scan = (events: readonly FindableEvent[], base: { index: number; expand: readonly string[] } | undefined) => {
    events.forEach((event, i) => {
      const index = base?.index ?? i;
      const expand = base?.expand ?? [];
      if (event.kind === 'prompt') add(event.text ?? '', { index, expand: [...expand], callId: null, part: 'prompt' });
      const note = noteTextOf?.(event);
      if (note !== undefined) add(note, { index, expand: [...expand], callId: null, part: 'note' });
      if (event.kind !== 'assistant') return;
      for (const item of event.items ?? []) {
        if (item.kind === 'text') add(item.text ?? '', { index, expand: [...expand], callId: null, part: 'text' });
        else if (item.kind === 'thinking')
          add(item.thinking ?? '', { index, expand: [...expand], callId: null, part: 'thinking' });
        else if (item.kind === 'tool-call' && item.id !== undefined) {
          add(callText(item, plainOf), { index, expand: [...expand], callId: item.id, part: 'tool' });
          const sub = item.subagentKey ? thread(item.subagentKey) : undefined;
          if (sub && expand.length < 32) scan(sub, { index, expand: [...expand, item.id] });
        }
      }
    });
  };
  scan(thread(undefined) ?? [], undefined);
  return { hits, total };
}
