/**
 * One pass over a session's stored records for its summary (sessions.ts) and usage (session-usage.ts): each file's
 * rows in line order, the files as core reads them (main first, then by path). Nine queries scanned the same rows
 * before, each its own way; reading rows was most of a session's summary, and summaries a large part of a cold
 * index's writer time.
 */
import type Database from 'better-sqlite3';

/** An assistant record with usage, as `SessionUsageUpdater` counts it. */
export interface UsageRow {
  readonly message_id: string | null;
  readonly request_id: string | null;
  readonly model: string | null;
  readonly ts_ms: number | null;
  readonly is_synthetic: number;
  /** Null on the main thread, else the subagent's id (`sidechain` for a sidechain run without one). */
  readonly agent_id: string | null;
  readonly i: number | null;
  readonly o: number | null;
  readonly cc: number | null;
  readonly c1h: number | null;
  readonly cr: number | null;
  readonly ro: number | null;
}

/** A timed record of the main thread (main file, not a sidechain), for the time partition. */
export interface ThreadRow {
  readonly ts_ms: number;
  readonly kind: string;
  /** `<message id>:<request id>`, null without a message id. */
  readonly response_key: string | null;
  readonly is_prompt: number;
  readonly is_synthetic: number;
  readonly request_key: string | null;
  readonly line: number;
}

export interface SessionScan {
  /** The earliest and latest timed records (`ts` as stored, and its milliseconds). */
  readonly startedAt: string | null;
  readonly startedMs: number | null;
  readonly endedAt: string | null;
  readonly endedMs: number | null;
  /** Distinct prompts of the main thread (by uuid). */
  readonly prompts: number;
  /** Distinct model responses (by message id, else uuid). */
  readonly responses: number;
  /** The first working directory: main file first, main thread first, then by path and line. */
  readonly cwd: string | null;
  /** Client versions and models, in order of first use. */
  readonly versions: readonly string[];
  readonly models: readonly string[];
  /** The main thread's last git branch. */
  readonly gitBranch: string | null;
  readonly usage: readonly UsageRow[];
  /** Requests are not among them (session-usage.ts adds them). */
  readonly thread: readonly ThreadRow[];
}

export const EMPTY_SCAN: SessionScan = {
  startedAt: null,
  startedMs: null,
  endedAt: null,
  endedMs: null,
  prompts: 0,
  responses: 0,
  cwd: null,
  versions: [],
  models: [],
  gitBranch: null,
  usage: [],
  thread: [],
};

/** A session's file, in the order core reads them. */
export interface ScanFile {
  readonly id: number;
  readonly role: string;
  readonly agent_id: string | null;
}

interface Row {
  line: number;
  kind: string;
  ts_ms: number | null;
  cwd_ref: number | null;
  version_ref: number | null;
  git_branch_ref: number | null;
  model_ref: number | null;
  message_id: string | null;
  request_id: string | null;
  is_sidechain: number;
  is_synthetic: number;
  is_prompt: number;
  request_ref: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_creation_tokens: number | null;
  cache_1h_tokens: number | null;
  cache_read_tokens: number | null;
  reasoning_tokens: number | null;
  /** Only where a count needs it: a main-thread prompt, or a response without a message id. */
  uuid: string | null;
}

/** A row as `.raw()` gives it (faster than an object per row): `Row`'s fields, in the order `ROW_FIELDS` names. */
type RowValues = readonly unknown[];

/** `Row`'s fields in the order the query selects them. */
const ROW_FIELDS = [
  'line',
  'kind',
  'ts_ms',
  'cwd_ref',
  'version_ref',
  'git_branch_ref',
  'model_ref',
  'message_id',
  'request_id',
  'is_sidechain',
  'is_synthetic',
  'is_prompt',
  'request_ref',
  'input_tokens',
  'output_tokens',
  'cache_creation_tokens',
  'cache_1h_tokens',
  'cache_read_tokens',
  'reasoning_tokens',
  'uuid',
] as const satisfies readonly (keyof Row)[];

function rowOf(values: RowValues): Row {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < ROW_FIELDS.length; i++) row[ROW_FIELDS[i] as string] = values[i];
  return row as unknown as Row;
}

const THREAD_KINDS: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

/** Where a record is: ties between times go to the first in file id and line order (the order SQLite scanned in). */
interface At {
  readonly ms: number;
  readonly fileId: number;
  readonly line: number;
}

const before = (a: At, b: At) => a.fileId < b.fileId || (a.fileId === b.fileId && a.line < b.line);

export class SessionScanner {
  private readonly s;
  constructor(db: Database.Database) {
    this.s = {
      rows: db
        .prepare(
          `SELECT ${ROW_FIELDS.slice(0, -1).join(', ')},
           CASE WHEN (is_prompt = 1 AND is_sidechain = 0)
             OR (kind = 'assistant' AND is_synthetic = 0 AND message_id IS NULL) THEN uuid END AS uuid
         FROM records WHERE file_id = ? ORDER BY line`,
        )
        .raw(),
      text: db.prepare('SELECT text FROM strings WHERE id = ?').pluck(),
      ts: db.prepare('SELECT ts FROM records WHERE file_id = ? AND line = ?').pluck(),
    };
  }

  /** Scan the records of a session's files, given in the order core reads them (main first, then by path). */
  scan(files: readonly ScanFile[]): SessionScan {
    const texts = new Map<number, string | null>();
    const text = (ref: number | null): string | null => {
      if (ref === null) return null;
      let t = texts.get(ref);
      if (t === undefined) {
        t = (this.s.text.get(ref) as string | undefined) ?? null;
        texts.set(ref, t);
      }
      return t;
    };
    let first: At | undefined;
    let last: At | undefined;
    const prompts = new Set<string>();
    const responses = new Set<string>();
    let cwd: { ref: number; main: boolean; sidechain: number } | undefined;
    const versions = new Set<string>();
    const models = new Set<string>();
    let branch: { text: string; line: number } | undefined;
    const usage: UsageRow[] = [];
    const thread: ThreadRow[] = [];
    for (const file of files) {
      const main = file.role === 'main';
      for (const values of this.s.rows.all(file.id) as RowValues[]) {
        const r = rowOf(values);
        if (r.ts_ms !== null) {
          const at = { ms: r.ts_ms, fileId: file.id, line: r.line };
          if (first === undefined || at.ms < first.ms || (at.ms === first.ms && before(at, first))) first = at;
          if (last === undefined || at.ms > last.ms || (at.ms === last.ms && before(at, last))) last = at;
        }
        const mainThread = main && r.is_sidechain === 0;
        if (r.is_prompt === 1 && r.is_sidechain === 0 && r.uuid !== null) prompts.add(r.uuid);
        const assistant = r.kind === 'assistant';
        if (assistant && r.is_synthetic === 0) {
          const key = r.message_id ?? r.uuid;
          if (key !== null) responses.add(key);
          const model = text(r.model_ref);
          if (model !== null && model !== '') models.add(model);
        }
        // Main files before subagent files, the main thread before sidechains, then path and line (files and lines
        // come in that order: the first of each kind is the earliest).
        if (
          r.cwd_ref !== null &&
          (cwd === undefined || (main && !cwd.main) || (main === cwd.main && r.is_sidechain < cwd.sidechain))
        ) {
          cwd = { ref: r.cwd_ref, main, sidechain: r.is_sidechain };
        }
        const version = text(r.version_ref);
        if (version !== null && version !== '') versions.add(version);
        if (mainThread && r.git_branch_ref !== null && (branch === undefined || r.line > branch.line)) {
          const t = text(r.git_branch_ref);
          if (t !== null && t !== '') branch = { text: t, line: r.line };
        }
        if (assistant && r.output_tokens !== null) {
          usage.push({
            message_id: r.message_id,
            request_id: r.request_id,
            model: text(r.model_ref),
            ts_ms: r.ts_ms,
            is_synthetic: r.is_synthetic,
            agent_id: mainThread ? null : (file.agent_id ?? 'sidechain'),
            i: r.input_tokens,
            o: r.output_tokens,
            cc: r.cache_creation_tokens,
            c1h: r.cache_1h_tokens,
            cr: r.cache_read_tokens,
            ro: r.reasoning_tokens,
          });
        }
        if (mainThread && r.ts_ms !== null && THREAD_KINDS.has(r.kind)) {
          thread.push({
            ts_ms: r.ts_ms,
            kind: r.kind,
            response_key: r.message_id === null ? null : `${r.message_id}:${r.request_id ?? ''}`,
            is_prompt: r.is_prompt,
            is_synthetic: r.is_synthetic,
            request_key: r.request_ref,
            line: r.line,
          });
        }
      }
    }
    const tsAt = (at: At | undefined) =>
      at === undefined ? null : ((this.s.ts.get(at.fileId, at.line) as string | null | undefined) ?? null);
    return {
      startedAt: tsAt(first),
      startedMs: first?.ms ?? null,
      endedAt: tsAt(last),
      endedMs: last?.ms ?? null,
      prompts: prompts.size,
      responses: responses.size,
      cwd: cwd === undefined ? null : text(cwd.ref),
      versions: [...versions],
      models: [...models],
      gitBranch: branch?.text ?? null,
      usage,
      thread,
    };
  }
}
