/**
 * One pass over a session's stored records for its summary (sessions.ts) and usage (session-usage.ts): each file's
 * rows in line order, the files as core reads them (main first, then by path). The summary's rules are core's
 * (`SessionSummary`, which `loadSession` folds its records into too); this reads the rows and hands it their facts.
 * Reading rows was most of a session's summary, and summaries a large part of a cold index's writer time.
 */
import { type RecordFact, SessionSummary, SidechainRuns } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { preparedOnUse } from '../schema/prepared.js';

/** An assistant record with usage, as `SessionUsageUpdater` counts it. */
export interface UsageRow {
  readonly message_id: string | null;
  readonly request_id: string | null;
  readonly model: string | null;
  readonly ts_ms: number | null;
  readonly is_synthetic: number;
  /** Null on the main thread, else the subagent's id (`sidechain` for a sidechain run without one). */
  readonly agent_id: string | null;
  /** Null when the record has usage without its input side (core's `Usage.inputUnrecorded`). */
  readonly i: number | null;
  readonly o: number | null;
  readonly cc: number | null;
  readonly c1h: number | null;
  readonly cr: number | null;
  readonly ro: number | null;
  /** Core's `Usage.outputAtLeast`: the least output the record's content took, when `o` is below it. */
  readonly oal: number | null;
  /** Core's `Usage.turnsUnrecorded`: responses written into the record without their usage. */
  readonly tu: number | null;
}

/**
 * A timed record of the main thread (main file, not a sidechain), for the time partition; of any file when the
 * session has no main file (its subagents are then its main timeline).
 */
export interface ThreadRow {
  readonly ts_ms: number;
  readonly kind: string;
  /** `<message id>:<request id>`, null without a message id. */
  readonly response_key: string | null;
  /** `records.shown`: 1 a prompt. */
  readonly shown: number;
  readonly is_synthetic: number;
  readonly request_key: string | null;
  readonly line: number;
}

export interface SessionScan {
  /** The session's summary by core's rule, its stamps where a record is (`stampText` reads its time as stored). */
  readonly summary: SessionSummary<number>;
  readonly stampText: (stamp: number | undefined) => string | null;
  readonly usage: readonly UsageRow[];
  /** Requests are not among them (session-usage.ts adds them). */
  readonly thread: readonly ThreadRow[];
  /** Whether the main file is among the session's files (else `thread` holds every file's records). */
  readonly mainFile: boolean;
  /**
   * The subagent runs written inside the main file (its sidechain records, Claude Code ≤ 2.0.27, split by parent as
   * core's `SidechainRuns` splits them; copies of a subagent, `copy_of`, are not among them).
   */
  readonly sidechainRuns: number;
}

/** What usage and time are counted from (session-usage.ts). */
export type UsageScan = Pick<SessionScan, 'usage' | 'thread' | 'mainFile'>;

/** A session without records. */
export const EMPTY_SCAN: UsageScan = { usage: [], thread: [], mainFile: true };

/** A session's file, in the order core reads them. */
export interface ScanFile {
  readonly id: number;
  readonly role: string;
  readonly agent_id: string | null;
}

/**
 * A stored row as `.raw()` gives it (an array, not an object per row: reading rows back was most of a summary's cost),
 * its columns in the order the query selects them.
 */
type RowValues = readonly [
  line: number,
  kind: string,
  ts_ms: number | null,
  cwd_ref: number | null,
  version_ref: number | null,
  git_branch_ref: number | null,
  model_ref: number | null,
  message_id: string | null,
  request_id: string | null,
  is_sidechain: number,
  is_synthetic: number,
  shown: number,
  request_ref: string | null,
  input_tokens: number | null,
  output_tokens: number | null,
  cache_creation_tokens: number | null,
  cache_1h_tokens: number | null,
  cache_read_tokens: number | null,
  reasoning_tokens: number | null,
  /**
   * Only where a count needs it: a response without a message id (its uuid), or a main-thread prompt (its uuid with
   * what the row keeps of core's `signatureOf`: a load keeps records of one placeholder uuid that differ, `CopyFilter`).
   */
  uuid: string | null,
  /** The subagent whose record this row copies (copy-rows.ts), else null. */
  copy_of: string | null,
  /** A sidechain record that is no copy: its uuid and its parent's (hex, '' for none); null on other rows. */
  run_key: string | null,
  run_parent: string | null,
  output_at_least: number | null,
  turns_unrecorded: number | null,
];

/** The columns of `RowValues`, in its order. */
const ROW_COLUMNS = `line, kind, ts_ms, cwd_ref, version_ref, git_branch_ref, model_ref, message_id, request_id,
  is_sidechain, is_synthetic, shown, request_ref, input_tokens, output_tokens, cache_creation_tokens, cache_1h_tokens,
  cache_read_tokens, reasoning_tokens,
  CASE WHEN shown = 1 AND is_sidechain = 0 THEN json_array(uuid, ts_text, ts_ms, sig)
    WHEN kind = 'assistant' AND is_synthetic = 0 AND message_id IS NULL THEN uuid
    WHEN is_synthetic IN (1, 3) THEN uuid END AS uuid, copy_of,
  CASE WHEN is_sidechain = 1 AND copy_of IS NULL THEN hex(uuid_raw) END AS run_key,
  CASE WHEN is_sidechain = 1 AND copy_of IS NULL THEN hex(parent_raw) END AS run_parent, output_at_least,
  turns_unrecorded`;

const THREAD_KINDS: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

/**
 * Where a row is, as one number (the summary keeps it for its earliest and latest record): the file's place in the
 * session's files, then its line. A session has far fewer files than 2^21.
 */
const LINES = 2 ** 32;

/** The summary's facts of one row, reused from row to row (the summary keeps none of it but the stamp). */
type MutableFact = { -readonly [K in keyof RecordFact<number>]: RecordFact<number>[K] };

export class SessionScanner {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = preparedOnUse({
      rows: () => db.prepare(`SELECT ${ROW_COLUMNS} FROM records WHERE file_id = ? ORDER BY line`).raw(),
      text: () => db.prepare('SELECT text FROM strings WHERE id = ?').pluck(),
      ts: () => db.prepare('SELECT ts FROM records WHERE file_id = ? AND line = ?').pluck(),
    });
  }

  /**
   * Scan the records of a session's files, given in the order core reads them (main first, then by path): the
   * summary by core's rule (`SessionSummary`), and the rows usage and time are counted from. The title is not
   * among it (sessions.ts adds it to `summary` from the titles table and calls `finish`).
   */
  scan(files: readonly ScanFile[]): SessionScan {
    const texts = new Map<number, string | undefined>();
    const text = (ref: number | null): string | undefined => {
      if (ref === null) return undefined;
      let t = texts.get(ref);
      if (t === undefined && !texts.has(ref)) {
        t = (this.s.text.get(ref) as string | null | undefined) ?? undefined;
        texts.set(ref, t);
      }
      return t;
    };
    const summary = new SessionSummary<number>();
    const fact: MutableFact = {
      place: 'main',
      ms: undefined,
      stamp: 0,
      cwd: undefined,
      version: undefined,
      gitBranch: undefined,
      model: undefined,
      responseKey: undefined,
      promptKey: undefined,
      failure: undefined,
    };
    const usage: UsageRow[] = [];
    const thread: ThreadRow[] = [];
    const mainFile = files.some((f) => f.role === 'main');
    const runs = new SidechainRuns<true>();
    let sidechainRuns = 0;
    files.forEach((file, fileIndex) => {
      const main = file.role === 'main';
      for (const r of this.s.rows.all(file.id) as RowValues[]) {
        // By position (a destructuring iterates): the names are `RowValues`' labels.
        const line = r[0];
        const kind = r[1];
        const tsMs = r[2];
        const messageId = r[7];
        const requestId = r[8];
        const synthetic = r[10];
        const shown = r[11];
        const outputTokens = r[14];
        const uuid = r[19];
        const mainThread = main && r[9] === 0;
        const assistant = kind === 'assistant';
        const response = assistant && synthetic === 0;
        fact.place = mainThread ? 'main' : main ? 'sidechain' : 'subagent';
        const runKey = r[21];
        if (main && runKey !== null && runs.take(runKey || undefined, r[22] || undefined, () => true).started) {
          sidechainRuns += 1;
        }
        // Stored rows are the records whose time counts (core's `countsForTime`).
        fact.ms = tsMs ?? undefined;
        fact.stamp = fileIndex * LINES + line;
        fact.cwd = text(r[3]);
        fact.version = text(r[4]);
        fact.gitBranch = mainThread ? text(r[5]) : undefined;
        // A meta row's model is the one a settings record says was asked for (record-rows.ts).
        fact.model = response || kind === 'meta' ? text(r[6]) : undefined;
        fact.responseKey = response ? (messageId ?? uuid ?? undefined) : undefined;
        fact.promptKey = shown === 1 ? (uuid ?? undefined) : undefined;
        // a failed request or attempt (records.is_synthetic 1 or 3): once, however many copies hold it
        fact.failure =
          synthetic === 1 || synthetic === 3
            ? { kind: synthetic === 1 ? 'failed' : 'retried', key: messageId ?? uuid ?? `@${fact.stamp}` }
            : undefined;
        summary.add(fact);
        if (assistant && outputTokens !== null) {
          usage.push({
            message_id: messageId,
            request_id: requestId,
            model: text(r[6]) ?? null,
            ts_ms: tsMs,
            is_synthetic: synthetic,
            agent_id: mainThread ? null : (r[20] ?? file.agent_id ?? 'sidechain'),
            i: r[13],
            o: outputTokens,
            cc: r[15],
            c1h: r[16],
            cr: r[17],
            ro: r[18],
            oal: r[23],
            tu: r[24],
          });
        }
        if ((mainThread || !mainFile) && tsMs !== null && THREAD_KINDS.has(kind)) {
          thread.push({
            ts_ms: tsMs,
            kind,
            response_key: messageId === null ? null : `${messageId}:${requestId ?? ''}`,
            shown,
            is_synthetic: synthetic,
            request_key: r[12],
            line,
          });
        }
      }
    });
    const stampText = (stamp: number | undefined) => {
      const file = stamp === undefined ? undefined : files[Math.floor(stamp / LINES)];
      if (file === undefined || stamp === undefined) return null;
      return (this.s.ts.get(file.id, stamp % LINES) as string | null | undefined) ?? null;
    };
    return {
      summary,
      stampText,
      usage,
      thread,
      mainFile,
      sidechainRuns,
    };
  }
}
