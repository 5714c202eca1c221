/**
 * Session summaries as stored: the list, one summary, a session's shortest reference. Light: SQLite, prices and
 * core's light half only (no parser), so the warm path lists sessions without the full index.
 */
import { basename } from 'node:path';
import { outputTime } from '@agentdash/core/base';
import { reportedTime, type SessionTime, zeroTime } from '@agentdash/core/time';
import { agentOfRow } from '../agent-kind.js';
import { prepared } from '../schema/prepared.js';
import type { SessionFilter, SessionSummary, UsagePart } from '../types.js';
import { capList, clipField } from './field-caps.js';
import { HEADLESS_COPY, limitSql, type Store, scopeSql } from './scope.js';
import { answered, sessionUsage } from './session-cost.js';

/** A session is live when records were appended to it, or its newest record was written, within this window. */
export const LIVE_WINDOW_MS = 2 * 60 * 1000;

export interface SessionRow {
  id: string;
  session_id: string;
  project_dir: string;
  project_path: string | null;
  title: string | null;
  title_source: string | null;
  started_at: string | null;
  ended_at: string | null;
  started_ms: number | null;
  ended_ms: number | null;
  prompts: number;
  messages: number;
  tool_calls: number;
  errors: number;
  expected_errors: number;
  api_errors: number;
  api_retries: number;
  versions: string;
  models: string;
  /** What of `prompts`, `messages` and `models` a fork or resume copied from sessions that own it (session-usage.ts). */
  copied_prompts: number;
  copied_responses: number;
  copied_models: string;
  git_branch: string | null;
  issues: number;
  usage_detail: string;
  time: string | null;
  agent: string;
  /** Its subagents as `loadSession` finds them: files, sidechain runs, subagents kept as copies (write/sessions.ts). */
  subagents: number;
  /** Its subagent files that are the client's cache warm-ups (write/warmup-files.ts). */
  warmups: number;
}

/** The models a session's own responses name (and those it asked for), not those only its copies name. */
function ownModels(row: Pick<SessionRow, 'models' | 'copied_models'>): string[] {
  const models = JSON.parse(row.models) as string[];
  if (row.copied_models === '[]') return models;
  const copied = new Set(JSON.parse(row.copied_models) as string[]);
  return models.filter((model) => !copied.has(model));
}

/** Whether a session is being written now: appended to while watched, or its newest record is recent. */
export function isLiveSession(now: number, endedMs: number | null, appendedMs: readonly (number | null)[]): boolean {
  if (endedMs !== null && now - endedMs < LIVE_WINDOW_MS) return true;
  return appendedMs.some((ms) => ms !== null && now - ms < LIVE_WINDOW_MS);
}

/** The columns of a session's files that its summary needs (with their secret counts). */
const FILE_COLUMNS = `path, role, agent_id, appended_ms, archived,
    (SELECT coalesce(sum(s.count), 0) FROM secret_counts s WHERE s.file_id = files.id) AS secrets`;
const FILES_OF_SESSION = `SELECT ${FILE_COLUMNS} FROM files WHERE session_id = ? ORDER BY role, path`;
/** The same for several sessions at once (their keys as a JSON array), in the same order within each. */
const FILES_OF_SESSIONS = `SELECT session_id AS key, ${FILE_COLUMNS} FROM files
  WHERE session_id IN (SELECT value FROM json_each(?)) ORDER BY session_id, role, path`;

interface SummaryFile {
  path: string;
  role: 'main' | 'subagent';
  agent_id: string | null;
  appended_ms: number | null;
  archived: number;
  secrets: number;
}

/**
 * Summaries of many sessions: their files read in one query, and the ids shared by several sessions (which need a
 * qualified reference) in another, not two queries per session (a sessions page of a large home is thousands).
 */
export function summariesOf(store: Store, rows: readonly SessionRow[]): SessionSummary[] {
  if (rows.length <= 1) return rows.map((r) => summaryOf(store, r));
  const filesOf = new Map<string, SummaryFile[]>();
  const all = prepared(store.db, FILES_OF_SESSIONS).all(JSON.stringify(rows.map((r) => r.id))) as (SummaryFile & {
    key: string;
  })[];
  for (const { key, ...file } of all) {
    const files = filesOf.get(key);
    if (files === undefined) filesOf.set(key, [file]);
    else files.push(file);
  }
  const shared = new Set(
    prepared(store.db, 'SELECT session_id FROM sessions GROUP BY session_id HAVING COUNT(*) > 1')
      .pluck()
      .all() as string[],
  );
  return rows.map((r) =>
    summaryOf(store, r, {
      files: filesOf.get(r.id) ?? [],
      ref: shared.has(r.session_id) ? refOf(store, r) : r.session_id,
    }),
  );
}

/** The summary of one stored session (`known`: its files and reference, when read already). */
export function summaryOf(
  store: Store,
  row: SessionRow,
  known?: { readonly files: readonly SummaryFile[]; readonly ref: string },
): SessionSummary {
  const files = known?.files ?? (prepared(store.db, FILES_OF_SESSION).all(row.id) as SummaryFile[]);
  const main = files.find((f) => f.role === 'main');
  const archived = (main ?? files[0])?.archived === 1;
  const usage = sessionUsage(
    JSON.parse(row.usage_detail) as UsagePart[],
    store.prices,
    answered(row.models, row.messages - row.prompts),
  );
  // unknown (null), not 0, when its main thread's records give no span (`reportedTime`)
  const time = reportedTime(row.time === null ? zeroTime : (JSON.parse(row.time) as SessionTime));
  return {
    id: row.session_id,
    agent: agentOfRow(row.agent),
    ref: known?.ref ?? refOf(store, row),
    key: row.id,
    projectPath: row.project_path === null ? undefined : clipField(row.project_path, 4096),
    projectDir: row.project_dir,
    title: row.title === null ? undefined : clipField(row.title),
    titleSource: (row.title_source ?? undefined) as SessionSummary['titleSource'],
    startedAt: outputTime(row.started_ms ?? undefined, row.started_at ?? undefined),
    endedAt: outputTime(row.ended_ms ?? undefined, row.ended_at ?? undefined),
    // The session's wall time, one figure everywhere: its main thread's first to last timestamp (the time bar's
    // `wallMs`), not the span of all its files (subagent files another client wrote days apart stretched that);
    // without a main file, its files' first to last (session-scan.ts).
    // Unknown, not 0, when its main thread's records give no span: one timestamp for the whole thread (old Codex
    // rollouts stamp only their header), or none (`time.wallMs` null, core's `reportedTime`).
    durationMs: time.wallMs ?? undefined,
    // Its own, as its calls and cost are: a fork's or resume's copies of the conversation count where they began.
    messages: Math.max(0, row.messages - row.copied_prompts - row.copied_responses),
    prompts: Math.max(0, row.prompts - row.copied_prompts),
    toolCalls: row.tool_calls,
    errors: row.errors,
    expectedErrors: row.expected_errors,
    apiErrors: row.api_errors,
    apiRetries: row.api_retries,
    versions: capList(JSON.parse(row.versions) as string[]),
    models: capList(ownModels(row)),
    gitBranch: row.git_branch === null ? undefined : clipField(row.git_branch),
    files: files.map((f) => ({
      path: f.path,
      role: f.role,
      ...(f.agent_id !== null ? { agentId: f.agent_id } : {}),
    })),
    subagents: row.subagents,
    warmups: row.warmups,
    // A session read from the archive (its files are gone) is not being written.
    isLive:
      !archived &&
      isLiveSession(
        store.now(),
        row.ended_ms,
        files.map((f) => f.appended_ms),
      ),
    archived,
    issues: row.issues,
    secrets: files.reduce((sum, f) => sum + f.secrets, 0),
    ...usage,
    time,
  };
}

/** Every session id the index holds, once each: what a session's shortest reference must differ from. */
export function sessionIdsOf(store: Pick<Store, 'db'>): string[] {
  return prepared(store.db, 'SELECT DISTINCT session_id FROM sessions', 'pluck').all() as string[];
}

export function listSessions(store: Store, filter: SessionFilter = {}): SessionSummary[] {
  const scoped = scopeSql(filter);
  const rows = prepared(
    store.db,
    `SELECT * FROM sessions s WHERE ${scoped.sql}
       ORDER BY coalesce(s.started_ms, 0) DESC, s.id${limitSql(filter.limit)}`,
  ).all(...scoped.params) as SessionRow[];
  return summariesOf(store, rows);
}

/**
 * The sessions `filter` selects that are read from a headless run's output whose transcript is indexed too
 * (`HEADLESS_COPY`): in no list or count, yet possibly sent to a team server before the transcript came. A push takes
 * them back there, so that the team counts each session once, as this laptop does.
 */
export function headlessCopies(store: Store, filter: SessionFilter = {}): SessionSummary[] {
  const scoped = scopeSql(filter, { resumeStubs: true });
  const rows = prepared(
    store.db,
    `SELECT * FROM sessions s WHERE ${scoped.sql} AND ${HEADLESS_COPY} ORDER BY s.id${limitSql(filter.limit)}`,
  ).all(...scoped.params) as SessionRow[];
  return summariesOf(store, rows);
}

/** A function from session key to reference (see `SessionSummary.ref`), remembering what it looked up. */
export function refsOf(store: Store): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let ref = known.get(key);
    if (ref === undefined) {
      const row = prepared(store.db, 'SELECT * FROM sessions WHERE id = ?').get(key) as SessionRow | undefined;
      ref = row === undefined ? key : refOf(store, row);
      known.set(key, ref);
    }
    return ref;
  };
}

/**
 * `<id>@<project folder name>`. (Not `<folder>/<id>`: Claude's project folders start with `-`, which a command line
 * takes for an option.)
 */
function qualified(row: Pick<SessionRow, 'project_dir' | 'session_id'>): string {
  return `${row.session_id}@${basename(row.project_dir)}`;
}

/**
 * The shortest unique reference of a session: its id, else `<id>@<folder>`, else its key. A session read from a
 * headless run's output (a CI artifact of the same session) does not make its transcript's reference longer: a
 * reference naming both names the transcript's, the one lists show (`findSessionRow`); the output's own is qualified.
 */
export function refOf(store: Store, row: SessionRow): string {
  const rows = prepared(
    store.db,
    `SELECT id, project_dir, session_id,
       EXISTS (SELECT 1 FROM files f WHERE f.session_id = sessions.id AND f.headless = 1) AS headless
     FROM sessions WHERE session_id = ?`,
  ).all(row.session_id) as (Pick<SessionRow, 'id' | 'project_dir' | 'session_id'> & { headless: number })[];
  const headless = rows.find((o) => o.id === row.id)?.headless === 1;
  const same = headless ? rows : rows.filter((o) => o.headless === 0);
  if (same.length <= 1) return row.session_id;
  const mine = qualified(row);
  return same.filter((o) => qualified(o) === mine).length === 1 ? mine : row.id;
}
