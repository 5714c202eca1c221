/** Sessions as stored: summaries, lookup by id or prefix, and the files a session is read from. */
import { resolve } from 'node:path';
import { loadSession as coreLoadSession, type DiscoveredFile, type Session, type SessionFiles } from '@agentdash/core';
import { Archive } from './archive.js';
import { AmbiguousSessionError, UnknownSessionError } from './errors.js';
import type { FileRow } from './import.js';
import { limitSql, type Store, scopeSql } from './scope.js';
import type { SessionFilter, SessionSummary, UsageSummary } from './types.js';

/** A session is live when its main file changed within this window. */
export const LIVE_WINDOW_MS = 2 * 60 * 1000;

interface SessionRow {
  id: string;
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
  versions: string;
  models: string;
  git_branch: string | null;
  issues: number;
  usage: string;
}

function summaryOf(store: Store, row: SessionRow): SessionSummary {
  const files = store.db
    .prepare('SELECT path, role, agent_id, mtime_ms, archived FROM files WHERE session_id = ? ORDER BY role, path')
    .all(row.id) as {
    path: string;
    role: 'main' | 'subagent';
    agent_id: string | null;
    mtime_ms: number;
    archived: number;
  }[];
  const main = files.find((f) => f.role === 'main');
  const usageByModel = JSON.parse(row.usage) as Record<string, UsageSummary>;
  const usage: UsageSummary = Object.values(usageByModel).reduce(
    (a, u) => ({
      responses: a.responses + u.responses,
      inputTokens: a.inputTokens + u.inputTokens,
      outputTokens: a.outputTokens + u.outputTokens,
      cacheCreationInputTokens: a.cacheCreationInputTokens + u.cacheCreationInputTokens,
      cacheReadInputTokens: a.cacheReadInputTokens + u.cacheReadInputTokens,
    }),
    { responses: 0, inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  );
  return {
    id: row.id,
    projectPath: row.project_path ?? undefined,
    projectDir: row.project_dir,
    title: row.title ?? undefined,
    titleSource: (row.title_source ?? undefined) as SessionSummary['titleSource'],
    startedAt: row.started_at ?? undefined,
    endedAt: row.ended_at ?? undefined,
    durationMs: row.started_ms !== null && row.ended_ms !== null ? row.ended_ms - row.started_ms : undefined,
    messages: row.messages,
    prompts: row.prompts,
    toolCalls: row.tool_calls,
    errors: row.errors,
    expectedErrors: row.expected_errors,
    versions: JSON.parse(row.versions) as string[],
    models: JSON.parse(row.models) as string[],
    gitBranch: row.git_branch ?? undefined,
    files: files.map((f) => ({
      path: f.path,
      role: f.role,
      ...(f.agent_id !== null ? { agentId: f.agent_id } : {}),
    })),
    subagents: files.filter((f) => f.role === 'subagent').length,
    isLive: main !== undefined && main.archived === 0 && store.now() - main.mtime_ms < LIVE_WINDOW_MS,
    archived: (main ?? files[0])?.archived === 1,
    issues: row.issues,
    usage,
    usageByModel,
  };
}

export function listSessions(store: Store, filter: SessionFilter = {}): SessionSummary[] {
  const scoped = scopeSql(filter);
  const rows = store.db
    .prepare(
      `SELECT * FROM sessions s WHERE ${scoped.sql}
       ORDER BY coalesce(s.started_ms, 0) DESC, s.id${limitSql(filter.limit)}`,
    )
    .all(...scoped.params) as SessionRow[];
  return rows.map((r) => summaryOf(store, r));
}

/** The session with this id, else the one whose id starts with it; AmbiguousSessionError when several do. */
export function getSession(store: Store, idOrPrefix: string): SessionSummary | undefined {
  const exact = store.db.prepare('SELECT * FROM sessions WHERE id = ?').get(idOrPrefix) as SessionRow | undefined;
  if (exact) return summaryOf(store, exact);
  if (idOrPrefix === '') return undefined;
  const rows = store.db
    .prepare('SELECT * FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 50')
    .all(idOrPrefix.length, idOrPrefix) as SessionRow[];
  if (rows.length === 0) return undefined;
  if (rows.length > 1) {
    throw new AmbiguousSessionError(
      idOrPrefix,
      rows.map((r) => r.id),
    );
  }
  const only = rows[0];
  return only ? summaryOf(store, only) : undefined;
}

export function sessionIdOfFile(store: Store, path: string): string | undefined {
  return store.db.prepare('SELECT session_id FROM files WHERE path = ?').pluck().get(resolve(path)) as
    | string
    | undefined;
}

function toDiscoveredFile(r: FileRow): DiscoveredFile {
  return {
    path: r.path,
    projectDir: r.project_dir,
    role: r.role,
    sessionId: r.session_id,
    agentId: r.agent_id ?? undefined,
    metaPath: r.meta_path ?? undefined,
    size: r.size,
    mtimeMs: r.mtime_ms,
    ino: r.ino,
  };
}

export function sessionFiles(store: Store, sessionId: string): SessionFiles | undefined {
  const rows = store.db
    .prepare('SELECT * FROM files WHERE session_id = ? ORDER BY role, path')
    .all(sessionId) as FileRow[];
  if (rows.length === 0) return undefined;
  const main = rows.find((r) => r.role === 'main');
  return {
    sessionId,
    projectDir: (main ?? rows[0])?.project_dir ?? '',
    main: main ? toDiscoveredFile(main) : undefined,
    subagents: rows.filter((r) => r.role === 'subagent').map(toDiscoveredFile),
  };
}

/** Core's full session over the stored files; live when its main file changed within LIVE_WINDOW_MS. */
export async function loadSession(store: Store, sessionId: string): Promise<Session> {
  const group = sessionFiles(store, sessionId);
  if (!group) throw new UnknownSessionError(sessionId);
  const archived =
    store.db.prepare("SELECT 1 FROM files WHERE session_id = ? AND role = 'main' AND archived = 1").get(sessionId) !==
    undefined;
  const live = group.main !== undefined && !archived && store.now() - group.main.mtimeMs < LIVE_WINDOW_MS;
  // Files that are gone from disk are read from the archive.
  return coreLoadSession(group, { live, open: new Archive(store.db).openBytes });
}
