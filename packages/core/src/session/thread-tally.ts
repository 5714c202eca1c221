/**
 * What a session's header counts of each thread (the main one, a sidechain run, a subagent's file), written once as a
 * fold over neutral record facts: the events its timeline shows by default, its responses, and the prompt that
 * started it. `loadSession` and `openSessionStream` feed it decoded records (`threadFactOf`); the index feeds it the
 * facts its importer stored from the same function (`records.shown`, `prompt_text`, a response's key), so the loaded
 * session's header and the index's (`index/src/read/session-header.ts`) count by one rule. Also here: how a session's
 * results pair with its calls (`ResultPairing`), and the largest subagent `.meta.json` either reads.
 *
 * @example
 * const tally = new ThreadTally<IsoTimestamp | undefined>();
 * for (const record of thread.records) tally.addRecord(record, record.timestamp);
 * const { shownEvents, responses } = tally;
 */
import type { TranscriptRecord } from '../model/record.js';
import { attachmentShows } from './attachment-note.js';
import { hiddenReasonOf, userText } from './classify-user.js';
import { timelineShows } from './header.js';

/** Largest subagent `.meta.json` read (a few hundred bytes in practice): by a load, and by the index's header. */
export const MAX_META_BYTES = 1024 * 1024;

/** What the tally reads of one record of a thread, whoever decoded or stored it. */
export interface ThreadFact {
  /**
   * How the timeline shows a user or system record by default (`timelineShows`): a prompt, another event, or
   * undefined (hidden, or not a user or system record).
   */
  readonly shows: 'prompt' | 'note' | undefined;
  /** A response (any assistant record): its message id, else its uuid. Its records make one event. */
  readonly responseKey: string | undefined;
  /** A record of a type AgentDash does not know: shown with its raw data. */
  readonly unknown: boolean;
  /** What a subagent was asked, when this record can say it (`threadPromptOf`). */
  readonly prompt: string | undefined;
}

/**
 * The text of a user message that is not meta: the first one of a subagent's thread is what it was asked. A message
 * of tool results alone says nothing (2.0.50 wrote no prompt record in a subagent's file: its first user record is a
 * result, and the prompt is then the starting call's).
 */
export function threadPromptOf(record: TranscriptRecord): string | undefined {
  if (record.kind !== 'user' || record.isMeta) return undefined;
  const text = userText(record.content);
  return text === '' && typeof record.content !== 'string' ? undefined : text;
}

/** How the timeline shows a record by default, as `ThreadFact.shows` (responses and unknown records aside). */
export function shownOf(record: TranscriptRecord): 'prompt' | 'note' | undefined {
  if (record.kind === 'user') return timelineShows({ kind: 'user', hidden: hiddenReasonOf(record) });
  if (record.kind === 'system')
    return timelineShows({ kind: 'system', subtype: record.subtype, content: record.content });
  if (record.kind === 'attachment') return attachmentShows(record);
  return undefined;
}

/** The tally's facts of a decoded record; its prompt only when `wantPrompt` (the thread has none yet). */
export function threadFactOf(record: TranscriptRecord, wantPrompt = true): ThreadFact {
  return {
    shows: shownOf(record),
    responseKey: record.kind === 'assistant' ? (record.messageId ?? record.uuid) : undefined,
    unknown: record.kind === 'unknown',
    prompt: wantPrompt ? threadPromptOf(record) : undefined,
  };
}

/** A thread's counts as a fold: `add` each kept record (copies dropped) in its order. `Stamp` as `SessionSummary`'s. */
export class ThreadTally<Stamp> {
  private shown = 0;
  private promptCount = 0;
  private unknown = 0;
  private counted = 0;
  private readonly responseKeys = new Set<string>();
  /** The first prompt of the thread (`ThreadFact.prompt`) and where it is. */
  firstPrompt: { readonly text: string; readonly stamp: Stamp } | undefined;

  add(fact: ThreadFact, stamp: Stamp): void {
    if (fact.shows !== undefined) this.shown++;
    if (fact.shows === 'prompt') this.promptCount++;
    if (fact.responseKey !== undefined) this.responseKeys.add(fact.responseKey);
    if (fact.unknown) this.unknown++;
    if (fact.prompt !== undefined && this.firstPrompt === undefined) this.firstPrompt = { text: fact.prompt, stamp };
  }

  /** A decoded record (`threadFactOf`; its prompt's text is taken only while the thread has none). */
  addRecord(record: TranscriptRecord, stamp: Stamp): void {
    this.add(threadFactOf(record, this.firstPrompt === undefined), stamp);
  }

  /** Unknown records counted where they are not read one by one (a file's count). */
  addUnknown(count: number): void {
    this.unknown += count;
  }

  /**
   * Records counted where they are not read one by one, by this rule (the index's SQL over its stored facts for a
   * long main thread): `shown` records with `shows`, `prompts` of them prompts, `responses` distinct response keys
   * of records no other `add` gives.
   */
  addCounted(counted: { readonly shown: number; readonly prompts: number; readonly responses: number }): void {
    this.shown += counted.shown;
    this.promptCount += counted.prompts;
    this.counted += counted.responses;
  }

  /** Prompts (user messages shown as prompts). */
  get prompts(): number {
    return this.promptCount;
  }

  /** Responses, each once. */
  get responses(): number {
    return this.responseKeys.size + this.counted;
  }

  /** Events the timeline shows by default: prompts and shown notes, each response once, unknown records. */
  get shownEvents(): number {
    return this.shown + this.responses + this.unknown;
  }
}

/**
 * How a session's results pair with its calls (seed 003), as a fold over the results in the order they are read:
 * the first result of an id is its result, a later one is a `duplicate_result` issue; a first result whose id no call
 * of the session has is an `orphan_result` issue (a result without an id pairs as the id '').
 */
export class ResultPairing {
  private readonly answered = new Set<string>();
  private duplicates = 0;

  /** Whether this is the first result of `id` (else it is counted as a duplicate). */
  first(id: string): boolean {
    if (this.answered.has(id)) {
      this.duplicates++;
      return false;
    }
    this.answered.add(id);
    return true;
  }

  /** Results known to be second ones without being read one by one (the index's count per record). */
  addDuplicates(count: number): void {
    this.duplicates += count;
  }

  /** The pairing issues: duplicates, then first results whose call is not in the session. */
  issues(hasCall: (id: string) => boolean): number {
    let orphans = 0;
    for (const id of this.answered) if (!hasCall(id)) orphans++;
    return this.duplicates + orphans;
  }
}

/** The prompt Claude Code 2.0.x sends to pre-warm a subagent's prompt cache at a session's start. */
const WARMUP_PROMPT = 'Warmup';

/** What `isWarmup` reads of a thread, whoever counted it (a load, the stream's first pass, the index's header). */
export interface WarmupFacts {
  /** Whether a call of the session started it (`matchSubagents`). */
  readonly started: boolean;
  /** Its `ThreadTally`. */
  readonly tally: Pick<ThreadTally<unknown>, 'prompts' | 'responses' | 'firstPrompt'>;
  /** Its tool calls. */
  readonly toolCalls: number;
}

/**
 * Whether a subagent thread is the client's cache warm-up rather than a subagent (Claude Code 2.0.x writes one or two
 * in every session, FORMAT.md §11): no call of the session started it, it made no tool call, and it is one request:
 * the prompt "Warmup" and at most one response (2.0.76; a client that exits at once writes no answer), or one
 * response without a prompt (2.0.50 records no subagent prompt). Its usage still counts (it was billed); it is not
 * listed, counted or drawn as a subagent.
 */
export function isWarmup(thread: WarmupFacts): boolean {
  const { tally } = thread;
  if (thread.started || thread.toolCalls > 0 || tally.responses > 1 || tally.prompts > 1) return false;
  return tally.firstPrompt === undefined
    ? tally.prompts === 0 && tally.responses === 1
    : tally.firstPrompt.text === WARMUP_PROMPT;
}
