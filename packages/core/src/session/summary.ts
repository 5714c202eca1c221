/**
 * A session's summary, written once as a fold over neutral record facts: its time range, the prompts and responses it
 * holds, its working directory, client versions, models, git branch and title. `loadSession` and
 * `openSessionStream` feed it decoded records (`recordFactOf`); the index feeds it its stored rows when it recomputes
 * a session's row (`index/src/write/session-scan.ts`), so the list, the loaded session and the stream agree by construction.
 *
 * @example
 * const summary = new SessionSummary<IsoTimestamp>();
 * for (const record of mainRecords) summary.add(recordFactOf(record, 'main'));
 * const { startedAt, projectPath } = summary.finish({ inSession: (uuid) => seen.has(uuid) });
 */
import { timestampMs } from '../model/ids.js';
import type { TranscriptRecord } from '../model/record.js';
import { isPrompt } from './classify-user.js';
import { promptTitleOf, threadTitleOf } from './prompt-title.js';
import { type RequestFailure, requestFailureOf } from './request-failure.js';
import { shownOf, threadPromptOf } from './thread-tally.js';

/** Where a record is in its session: the main thread, a sidechain run inside the main file, or a subagent's file. */
export type RecordPlace = 'main' | 'sidechain' | 'subagent';

/**
 * What the summary reads of one record, whoever decoded or stored it. `Stamp` is the record's timestamp as its
 * reader keeps it (the text as written, or where to find it), handed back for the earliest and the latest record.
 */
export interface RecordFact<Stamp> {
  readonly place: RecordPlace;
  /** Its time in milliseconds; undefined for a record without one, or one that does not count (`countsForTime`). */
  readonly ms: number | undefined;
  readonly stamp: Stamp;
  readonly cwd: string | undefined;
  readonly version: string | undefined;
  readonly gitBranch: string | undefined;
  /** A response's model (not for synthetic ones), or the model a settings record says was asked for (`MetaRecord.model`). */
  readonly model: string | undefined;
  /** A response: its message id, else its uuid (not for synthetic ones). */
  readonly responseKey: string | undefined;
  /** A prompt (core's `isPrompt`, blank ones too): its identity once copies are dropped. */
  readonly promptKey: string | undefined;
  /** A failed request or attempt (`requestFailureOf`): its identity once copies are dropped. */
  readonly failure?: { readonly kind: RequestFailure; readonly key: string } | undefined;
}

/** A title a session's main file gives itself, as it meets them. */
export interface TitleFact {
  readonly source: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt';
  readonly title: string;
  /** A summary's leaf: it titles the session only when the session holds that record. */
  readonly leaf?: string | undefined;
}

export type TitleSource = TitleFact['source'];

export interface SummaryOf<Stamp> {
  readonly startedAt: Stamp | undefined;
  readonly startedMs: number | undefined;
  readonly endedAt: Stamp | undefined;
  readonly endedMs: number | undefined;
  /** Prompts of the main thread, each uuid once. */
  readonly prompts: number;
  /** Model responses anywhere in the session, each once (by message id, else uuid). */
  readonly responses: number;
  /** Requests the agent gave up on (`requestFailureOf`), anywhere in the session, each once. */
  readonly failedRequests: number;
  /** Attempts that failed and were retried, each once. */
  readonly retriedRequests: number;
  /** The first working directory of the main thread, else the first of any record. */
  readonly projectPath: string | undefined;
  /** Client versions and models, in order of first use. */
  readonly versions: readonly string[];
  readonly models: readonly string[];
  /** The main thread's last git branch. */
  readonly gitBranch: string | undefined;
  /**
   * The last custom title, else the last AI title, else the last summary of a record in the session, else the first
   * prompt that can title it, else (none in the main file) the earliest such prompt of a subagent's file.
   */
  readonly title: string | undefined;
  readonly titleSource: TitleSource | undefined;
}

/** Whether a record's time counts for its session's range: unknown records and API requests do not. */
export function countsForTime(kind: TranscriptRecord['kind']): boolean {
  return kind !== 'unknown' && kind !== 'api-request';
}

/** A session's summary as a fold: `add` each record in the order the session's files are read, then `finish`. */
export class SessionSummary<Stamp> {
  private first: { ms: number; stamp: Stamp } | undefined;
  private last: { ms: number; stamp: Stamp } | undefined;
  private readonly promptKeys = new Set<string>();
  private readonly responseKeys = new Set<string>();
  private readonly failures = { failed: new Set<string>(), retried: new Set<string>() };
  private mainCwd: string | undefined;
  private anyCwd: string | undefined;
  private readonly versions = new Set<string>();
  private readonly models = new Set<string>();
  private gitBranch: string | undefined;
  private custom: string | undefined;
  private ai: string | undefined;
  private readonly summaries: { readonly leaf: string; readonly title: string }[] = [];
  private firstPrompt: string | undefined;
  private threadPrompt: { readonly title: string; readonly ms: number } | undefined;

  add(fact: RecordFact<Stamp>): void {
    const ms = fact.ms;
    if (ms !== undefined) {
      // The first met of equal times, both ways.
      if (this.first === undefined || ms < this.first.ms) this.first = { ms, stamp: fact.stamp };
      if (this.last === undefined || ms > this.last.ms) this.last = { ms, stamp: fact.stamp };
    }
    const main = fact.place === 'main';
    if (fact.cwd) {
      this.anyCwd ??= fact.cwd;
      if (main) this.mainCwd ??= fact.cwd;
    }
    if (fact.version) this.versions.add(fact.version);
    if (fact.model) this.models.add(fact.model);
    if (fact.responseKey !== undefined) this.responseKeys.add(fact.responseKey);
    if (fact.failure !== undefined) this.failures[fact.failure.kind].add(fact.failure.key);
    if (main) {
      if (fact.gitBranch) this.gitBranch = fact.gitBranch;
      if (fact.promptKey !== undefined) this.promptKeys.add(fact.promptKey);
    }
  }

  /** A title record, summary or titling prompt of the main file, in its order. */
  addTitle(fact: TitleFact): void {
    if (fact.title === '') return;
    if (fact.source === 'custom-title') this.custom = fact.title;
    else if (fact.source === 'ai-title') this.ai = fact.title;
    else if (fact.source === 'first-prompt') this.firstPrompt ??= fact.title;
    else if (fact.leaf !== undefined) this.summaries.push({ leaf: fact.leaf, title: fact.title });
  }

  /**
   * A titling prompt of a subagent's file (`titleFactOf` of its record, source `first-prompt`) and its time: the
   * session's title when its main file gives none (a session whose main file is gone; a Codex review thread whose
   * parent rollout is not here). The earliest of them, the first met of equal times: every reader meets the files
   * in path order and each file's records in order.
   */
  addThreadPrompt(title: string, ms: number | undefined): void {
    if (title === '') return;
    const at = ms ?? Number.POSITIVE_INFINITY;
    if (this.threadPrompt === undefined || at < this.threadPrompt.ms) this.threadPrompt = { title, ms: at };
  }

  /** The summary; `inSession` tells whether the session holds a record (a summary's leaf). */
  finish(inSession: (uuid: string) => boolean): SummaryOf<Stamp> {
    return {
      startedAt: this.first?.stamp,
      startedMs: this.first?.ms,
      endedAt: this.last?.stamp,
      endedMs: this.last?.ms,
      prompts: this.promptKeys.size,
      responses: this.responseKeys.size,
      failedRequests: this.failures.failed.size,
      retriedRequests: this.failures.retried.size,
      projectPath: this.mainCwd ?? this.anyCwd,
      versions: [...this.versions],
      models: [...this.models],
      gitBranch: this.gitBranch,
      ...this.titleOf(inSession),
    };
  }

  private titleOf(inSession: (uuid: string) => boolean): Pick<SummaryOf<Stamp>, 'title' | 'titleSource'> {
    if (this.custom !== undefined) return { title: this.custom, titleSource: 'custom-title' };
    if (this.ai !== undefined) return { title: this.ai, titleSource: 'ai-title' };
    for (let i = this.summaries.length - 1; i >= 0; i--) {
      const summary = this.summaries[i];
      if (summary !== undefined && inSession(summary.leaf)) return { title: summary.title, titleSource: 'summary' };
    }
    if (this.firstPrompt !== undefined) return { title: this.firstPrompt, titleSource: 'first-prompt' };
    if (this.threadPrompt !== undefined) return { title: this.threadPrompt.title, titleSource: 'first-prompt' };
    return { title: undefined, titleSource: undefined };
  }
}

/**
 * The summary's facts of a decoded record; `place` as the reader found it (`placeOf`), `key` the record's identity
 * once copies are dropped (its place in the read: records of one placeholder uuid may differ).
 */
export function recordFactOf(
  record: TranscriptRecord,
  place: RecordPlace,
  key: string,
): RecordFact<TranscriptRecord['timestamp']> {
  const response = record.kind === 'assistant' && !record.isSynthetic;
  const failure = requestFailureOf(record);
  return {
    place,
    ms: countsForTime(record.kind) ? timestampMs(record.timestamp) : undefined,
    stamp: record.timestamp,
    cwd: 'cwd' in record ? record.cwd : undefined,
    version: 'version' in record ? record.version : undefined,
    gitBranch: 'gitBranch' in record ? record.gitBranch : undefined,
    model: response || record.kind === 'meta' ? record.model : undefined,
    responseKey: response ? (record.messageId ?? record.uuid) : undefined,
    promptKey: isPrompt(record) ? key : undefined,
    failure: failure === undefined ? undefined : { kind: failure, key },
  };
}

/** Where a record of a session's file is: a subagent file's are the subagent's, a main file's by `isSidechain`. */
export function placeOf(record: TranscriptRecord, inMainFile: boolean): RecordPlace {
  if (!inMainFile) return 'subagent';
  return 'isSidechain' in record && record.isSidechain ? 'sidechain' : 'main';
}

/**
 * The title a record of the main file offers: a title record, a summary, or (`wantPrompt`: none met yet) a prompt
 * that can title the session (`promptTitleOf`).
 */
export function titleFactOf(record: TranscriptRecord, wantPrompt: boolean): TitleFact | undefined {
  if (record.kind === 'title') return { source: record.source, title: record.title };
  if (record.kind === 'summary') return { source: 'summary', title: record.summary, leaf: record.leafUuid };
  if (record.kind !== 'user' || !wantPrompt) return undefined;
  const title = promptTitleOf(record);
  return title === undefined ? undefined : { source: 'first-prompt', title };
}

/**
 * The title a record of a subagent's file offers its session (`SessionSummary.addThreadPrompt`), when it is a prompt
 * the timeline shows.
 */
export function threadTitleFactOf(record: TranscriptRecord): { title: string; ms: number | undefined } | undefined {
  if (shownOf(record) !== 'prompt') return undefined;
  const text = threadPromptOf(record);
  const title = text === undefined ? undefined : threadTitleOf(text);
  return title === undefined ? undefined : { title, ms: timestampMs(record.timestamp) };
}
