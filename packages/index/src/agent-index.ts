import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import {
  canonicalToolName,
  loadSession as coreLoadSession,
  type DiscoveredFile,
  discoverFiles,
  type ParseIssue,
  type Session,
  type SessionFiles,
  streamRecords,
  UnreadableFileError,
} from '@agentdash/core';
import Database from 'better-sqlite3';
import { AmbiguousSessionError, UnknownSessionError } from './errors.js';
import { type FileRow, sessionKeyOf, Writer } from './import.js';
import { migrate, NewerSchemaError } from './schema.js';
import { SessionUpdater } from './sessions.js';
import type {
  CallFilter,
  CallRow,
  CallRowStatus,
  RefreshOptions,
  RefreshReport,
  SearchFilter,
  SearchHit,
  SearchKind,
  SessionFilter,
  SessionSummary,
  StoredIssue,
  TimeInput,
  ToolStat,
  ToolStats,
  UsageSummary,
} from './types.js';

/** A session is live when its main file changed within this window. */
export const LIVE_WINDOW_MS = 2 * 60 * 1000;

export interface OpenIndexOptions {
  /** SQLite file; `:memory:` for a throwaway index. */
  readonly dbPath: string;
  /** Called with one-line notices (e.g. a corrupt index file moved aside and rebuilt). */
  readonly onWarning?: (message: string) => void;
  /** Clock, for tests. */
  readonly now?: () => number;
}

export interface AgentIndex {
  readonly dbPath: string;
  refresh(paths: readonly string[], options?: RefreshOptions): Promise<RefreshReport>;
  listSessions(filter?: SessionFilter): SessionSummary[];
  getSession(idOrPrefix: string): SessionSummary | undefined;
  /** The session a stored transcript file belongs to. */
  sessionIdOfFile(path: string): string | undefined;
  sessionFiles(sessionId: string): SessionFiles | undefined;
  loadSession(sessionId: string): Promise<Session>;
  stats(filter?: SessionFilter & { readonly tool?: string }): ToolStats;
  calls(filter?: CallFilter): CallRow[];
  search(query: string, filter?: SearchFilter): SearchHit[];
  /** Problems of the last refresh that are not stored with a file: unreadable files and folders. */
  refreshProblems(): readonly ParseIssue[];
  issues(filter?: {
    readonly sessionId?: string;
    readonly paths?: readonly string[];
    readonly limit?: number;
  }): StoredIssue[];
  close(): void;
}

/** Where the index lives by default: `$AGENTDASH_DB`, else the XDG data dir. */
export function defaultDbPath(
  env: Readonly<Record<string, string | undefined>>,
  homedir: string,
  platform: string = process.platform,
): string {
  const override = env.AGENTDASH_DB;
  if (override !== undefined && override !== '') return override;
  const xdg = env.XDG_DATA_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'agentdash', 'index.sqlite');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'agentdash', 'index.sqlite');
  return join(homedir, '.local', 'share', 'agentdash', 'index.sqlite');
}

function isCorruption(error: unknown): boolean {
  if (error instanceof NewerSchemaError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB'));
}

function openDb(dbPath: string): Database.Database {
  const db = new Database(dbPath);
  try {
    if (dbPath !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    // Touch the main tables so a damaged file fails here, not later.
    db.prepare('SELECT COUNT(*) FROM files').pluck().get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Open (creating or migrating) the index. A corrupt or unusable file is moved aside and rebuilt, with a warning. */
export function openIndex(options: OpenIndexOptions): AgentIndex {
  const { dbPath } = options;
  if (dbPath !== ':memory:') mkdirSync(dirname(resolve(dbPath)), { recursive: true });
  let db: Database.Database;
  try {
    db = openDb(dbPath);
  } catch (error) {
    if (!isCorruption(error) || dbPath === ':memory:') throw error;
    const aside = `${dbPath}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dbPath, aside);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, aside + suffix);
    }
    options.onWarning?.(
      `index database ${dbPath} was unusable (${error instanceof Error ? error.message : String(error)}); moved it to ${aside} and rebuilt the index`,
    );
    db = openDb(dbPath);
  }
  return new SqliteIndex(db, dbPath, options.now ?? Date.now);
}

function toMs(value: TimeInput | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${value}`);
  return ms;
}

/** Bytes kept from the start of a file and from just before its parsed offset, to notice a rewrite in place. */
const FINGERPRINT_BYTES = 64;

/**
 * Hex of the first (up to) 64 bytes and of the 64 bytes before `offset`; '' at offset 0 or when the file cannot be
 * read.
 */
async function fingerprintOf(path: string, offset: number): Promise<string> {
  if (offset <= 0) return '';
  const length = Math.min(FINGERPRINT_BYTES, offset);
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const head = Buffer.alloc(length);
    const tail = Buffer.alloc(length);
    const a = await handle.read(head, 0, length, 0);
    const b = await handle.read(tail, 0, length, offset - length);
    return `${head.subarray(0, a.bytesRead).toString('hex')}:${tail.subarray(0, b.bytesRead).toString('hex')}`;
  } finally {
    await handle.close();
  }
}

function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

/** A user query → an FTS5 query: every word or "quoted phrase" must occur. */
export function toFtsQuery(query: string): string {
  const parts: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const text = (match[1] ?? match[2] ?? '').trim();
    if (text === '') continue;
    const prefix = match[2] !== undefined && text.endsWith('*') && text.length > 1;
    const body = prefix ? text.slice(0, -1) : text;
    parts.push(`"${body.replace(/"/g, '""')}"${prefix ? '*' : ''}`);
  }
  return parts.join(' ');
}

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

class SqliteIndex implements AgentIndex {
  private readonly writer: Writer;
  private readonly updater: SessionUpdater;
  private queue: Promise<unknown> = Promise.resolve();
  /** Files that could not be read during the last refresh. */
  private unreadable: ParseIssue[] = [];

  constructor(
    private readonly db: Database.Database,
    readonly dbPath: string,
    private readonly now: () => number,
  ) {
    db.function('canonical_tool', { deterministic: true }, (name: unknown) =>
      typeof name === 'string' ? canonicalToolName(name) : null,
    );
    this.writer = new Writer(db);
    this.updater = new SessionUpdater(db);
  }

  close(): void {
    this.db.close();
  }

  refreshProblems(): readonly ParseIssue[] {
    return this.unreadable;
  }

  refresh(paths: readonly string[], options: RefreshOptions = {}): Promise<RefreshReport> {
    // One refresh at a time: each file's import is a transaction on the one connection.
    const run = this.queue.then(
      () => this.doRefresh(paths, options),
      () => this.doRefresh(paths, options),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doRefresh(paths: readonly string[], options: RefreshOptions): Promise<RefreshReport> {
    const roots = paths.map((p) => resolve(p));
    for (const root of roots) {
      const info = statSync(root, { throwIfNoEntry: false });
      if (info?.isDirectory() && root.endsWith('.jsonl')) {
        throw new UnreadableFileError(root, new Error('is a directory, not a transcript file'));
      }
    }
    const discovery = await discoverFiles(paths);
    this.unreadable = [...discovery.issues];
    const discovered = new Map(discovery.files.map((f) => [f.path, f]));
    const stored = this.db.prepare('SELECT * FROM files').all() as FileRow[];
    const storedByPath = new Map(stored.map((f) => [f.path, f]));

    let filesRemoved = 0;
    for (const row of stored) {
      if (discovered.has(row.path)) continue;
      if (roots.some((root) => isUnder(row.path, root)) || !existsSync(row.path)) {
        this.removeFile(row);
        filesRemoved += 1;
      }
    }

    let filesParsed = 0;
    let bytesParsed = 0;
    let records = 0;
    let newIssues = 0;
    let done = 0;
    const total = discovery.files.length;
    const explicitFiles = new Set(roots.filter((r) => r.endsWith('.jsonl')));
    for (const file of discovery.files) {
      const outcome = await this.importFile(file, storedByPath.get(file.path), explicitFiles.has(file.path));
      if (outcome.parsed) filesParsed += 1;
      bytesParsed += outcome.bytes;
      records += outcome.records;
      newIssues += outcome.issues;
      done += 1;
      options.onProgress?.({ done, total, file: file.path });
    }

    const scoped = this.scopeSql({ paths });
    const inPaths = this.pathCond(paths, 'f');
    const issues =
      (this.db
        .prepare(`SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE ${inPaths.sql}`)
        .pluck()
        .get(...inPaths.params) as number) + this.unreadable.length;
    const sessions = this.db
      .prepare(`SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
      .pluck()
      .get(...scoped.params) as number;
    return { files: total, filesParsed, bytesParsed, records, issues, newIssues, filesRemoved, sessions };
  }

  private removeFile(row: FileRow): void {
    this.db.transaction(() => {
      const ids = this.writer.idsOfFile(row.id);
      this.db.prepare('DELETE FROM files WHERE id = ?').run(row.id);
      const sessions = new Set<string>([row.session_id]);
      for (const id of ids) this.writer.recomputeCall(id, sessions);
      for (const sid of sessions) this.updater.recompute(sid);
    })();
  }

  private async importFile(
    file: DiscoveredFile,
    storedRow: FileRow | undefined,
    explicit: boolean,
  ): Promise<{ parsed: boolean; bytes: number; records: number; issues: number }> {
    const sessionId = sessionKeyOf(file);
    const unchanged =
      storedRow !== undefined &&
      storedRow.ino === file.ino &&
      storedRow.size === file.size &&
      storedRow.mtime_ms === file.mtimeMs &&
      storedRow.session_id === sessionId;
    if (unchanged) return { parsed: false, bytes: 0, records: 0, issues: 0 };

    const touched = new Set<string>();
    const sessions = new Set<string>([sessionId]);
    const counts = { records: 0, issues: 0 };
    this.db.exec('BEGIN IMMEDIATE');
    try {
      let row: FileRow;
      const restart =
        storedRow === undefined ||
        storedRow.ino !== file.ino ||
        file.size < storedRow.parsed_offset ||
        storedRow.session_id !== sessionId ||
        // Rewritten in place (same inode, not shorter): the bytes before the offset are not the ones we read.
        (await fingerprintOf(file.path, storedRow.parsed_offset)) !== storedRow.tail;
      // The project folder is kept as first discovered: a file passed on its own (e.g. a 2.1 subagent file) is
      // discovered with its own folder as project folder, which must not move it or make it re-read.
      if (storedRow === undefined) {
        const id = this.db
          .prepare(
            `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino)
             VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0)`,
          )
          .run(
            file.path,
            file.projectDir,
            file.role,
            sessionId,
            file.agentId ?? null,
            file.metaPath ?? null,
          ).lastInsertRowid;
        row = this.db.prepare('SELECT * FROM files WHERE id = ?').get(id) as FileRow;
      } else {
        row = storedRow;
        if (restart) {
          for (const id of this.writer.idsOfFile(row.id)) touched.add(id);
          sessions.add(row.session_id);
          this.writer.clearFile(row.id);
          this.db
            .prepare(
              `UPDATE files SET project_dir = ?, role = ?, session_id = ?, agent_id = ?, meta_path = ?,
               parsed_offset = 0, next_line = 1, records = 0 WHERE id = ?`,
            )
            .run(row.project_dir, file.role, sessionId, file.agentId ?? null, file.metaPath ?? null, row.id);
          row = this.db.prepare('SELECT * FROM files WHERE id = ?').get(row.id) as FileRow;
        }
      }
      const current = row;
      let end: Awaited<ReturnType<typeof streamRecords>>;
      // A failure to store (a bug, a full disk) must not pass for an unreadable file.
      let storeError: unknown;
      try {
        end = await streamRecords(
          file.path,
          (event) => {
            if (storeError !== undefined) return;
            try {
              this.writer.handle(current, event, touched, counts);
            } catch (error) {
              storeError = error;
            }
          },
          { startOffset: current.parsed_offset, startLine: current.next_line },
        );
      } catch (error) {
        if (explicit) throw new UnreadableFileError(file.path, error);
        // Unreadable now (permissions, vanished): keep what we had, note it, move on.
        this.db.exec('ROLLBACK');
        this.unreadable.push({
          code: 'unreadable_file',
          file: file.path,
          line: 0,
          message: error instanceof Error ? error.message : String(error),
        });
        return { parsed: false, bytes: 0, records: 0, issues: 0 };
      }
      if (storeError !== undefined) throw storeError;
      this.db
        .prepare(
          `UPDATE files SET size = ?, mtime_ms = ?, ino = ?, parsed_offset = ?, next_line = ?, records = records + ?,
             tail = ? WHERE id = ?`,
        )
        .run(
          file.size,
          file.mtimeMs,
          file.ino,
          end.nextOffset,
          end.nextLine,
          counts.records,
          await fingerprintOf(file.path, end.nextOffset),
          current.id,
        );
      for (const id of touched) this.writer.recomputeCall(id, sessions);
      for (const sid of sessions) this.updater.recompute(sid);
      this.db.exec('COMMIT');
      return { parsed: true, bytes: end.bytesRead, records: counts.records, issues: counts.issues };
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** `AND …` restricting `call_facts cf` to calls that occur in a file under the paths. */
  private callPathSql(paths: readonly string[] | undefined): { sql: string; params: unknown[] } {
    if (!paths || paths.length === 0) return { sql: '', params: [] };
    const cond = this.pathCond(paths, 'pf');
    return {
      sql: ` AND EXISTS (SELECT 1 FROM calls pc JOIN files pf ON pf.id = pc.file_id WHERE pc.tool_use_id = cf.tool_use_id AND ${cond.sql})`,
      params: cond.params,
    };
  }

  /** SQL condition: the file `alias.path` is one of the paths or under one of them. */
  private pathCond(paths: readonly string[], alias: string): { sql: string; params: unknown[] } {
    const ors: string[] = [];
    const params: unknown[] = [];
    for (const p of paths) {
      const root = resolve(p);
      const prefix = root.endsWith(sep) ? root : root + sep;
      ors.push(`(${alias}.path = ? OR substr(${alias}.path, 1, ?) = ?)`);
      params.push(root, prefix.length, prefix);
    }
    return { sql: ors.length === 0 ? '1 = 1' : `(${ors.join(' OR ')})`, params };
  }

  /**
   * SQL condition on `sessions s` for a session filter. With `paths`, a session is in scope when one of its files
   * is under them (queries over files, calls and text also check each file: see `pathCond`).
   */
  private scopeSql(filter: SessionFilter): { sql: string; params: unknown[] } {
    const where: string[] = ['1 = 1'];
    const params: unknown[] = [];
    if (filter.paths && filter.paths.length > 0) {
      const cond = this.pathCond(filter.paths, 'f');
      where.push(`EXISTS (SELECT 1 FROM files f WHERE f.session_id = s.id AND ${cond.sql})`);
      params.push(...cond.params);
    }
    if (filter.project !== undefined && filter.project !== '') {
      where.push("(instr(coalesce(s.project_path, ''), ?) > 0 OR instr(s.project_dir, ?) > 0)");
      params.push(filter.project, filter.project);
    }
    const since = toMs(filter.since);
    if (since !== undefined) {
      where.push('coalesce(s.ended_ms, s.started_ms) >= ?');
      params.push(since);
    }
    const until = toMs(filter.until);
    if (until !== undefined) {
      where.push('s.started_ms <= ?');
      params.push(until);
    }
    if (filter.model !== undefined && filter.model !== '') {
      where.push('EXISTS (SELECT 1 FROM json_each(s.models) WHERE instr(value, ?) > 0)');
      params.push(filter.model);
    }
    if (filter.version !== undefined && filter.version !== '') {
      where.push('EXISTS (SELECT 1 FROM json_each(s.versions) WHERE value = ?)');
      params.push(filter.version);
    }
    if (filter.hasErrors === true) where.push('s.errors > 0');
    if (filter.hasErrors === false) where.push('s.errors = 0');
    return { sql: where.join(' AND '), params };
  }

  private summaryOf(row: SessionRow): SessionSummary {
    const files = this.db
      .prepare('SELECT path, role, agent_id, mtime_ms FROM files WHERE session_id = ? ORDER BY role, path')
      .all(row.id) as { path: string; role: 'main' | 'subagent'; agent_id: string | null; mtime_ms: number }[];
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
      isLive: main !== undefined && this.now() - main.mtime_ms < LIVE_WINDOW_MS,
      issues: row.issues,
      usage,
      usageByModel,
    };
  }

  listSessions(filter: SessionFilter = {}): SessionSummary[] {
    const scoped = this.scopeSql(filter);
    const limit = filter.limit !== undefined && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const rows = this.db
      .prepare(
        `SELECT * FROM sessions s WHERE ${scoped.sql}
         ORDER BY coalesce(s.started_ms, 0) DESC, s.id${limit}`,
      )
      .all(...scoped.params) as SessionRow[];
    return rows.map((r) => this.summaryOf(r));
  }

  getSession(idOrPrefix: string): SessionSummary | undefined {
    const exact = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(idOrPrefix) as SessionRow | undefined;
    if (exact) return this.summaryOf(exact);
    if (idOrPrefix === '') return undefined;
    const rows = this.db
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
    return only ? this.summaryOf(only) : undefined;
  }

  sessionIdOfFile(path: string): string | undefined {
    return this.db.prepare('SELECT session_id FROM files WHERE path = ?').pluck().get(resolve(path)) as
      | string
      | undefined;
  }

  sessionFiles(sessionId: string): SessionFiles | undefined {
    const rows = this.db
      .prepare('SELECT * FROM files WHERE session_id = ? ORDER BY role, path')
      .all(sessionId) as FileRow[];
    if (rows.length === 0) return undefined;
    const toFile = (r: FileRow): DiscoveredFile => ({
      path: r.path,
      projectDir: r.project_dir,
      role: r.role,
      sessionId: r.session_id,
      agentId: r.agent_id ?? undefined,
      metaPath: r.meta_path ?? undefined,
      size: r.size,
      mtimeMs: r.mtime_ms,
      ino: r.ino,
    });
    const main = rows.find((r) => r.role === 'main');
    return {
      sessionId,
      projectDir: (main ?? rows[0])?.project_dir ?? '',
      main: main ? toFile(main) : undefined,
      subagents: rows.filter((r) => r.role === 'subagent').map(toFile),
    };
  }

  async loadSession(sessionId: string): Promise<Session> {
    const group = this.sessionFiles(sessionId);
    if (!group) throw new UnknownSessionError(sessionId);
    const live = group.main !== undefined && this.now() - group.main.mtimeMs < LIVE_WINDOW_MS;
    return coreLoadSession(group, { live });
  }

  stats(filter: SessionFilter & { readonly tool?: string } = {}): ToolStats {
    const scoped = this.scopeSql(filter);
    const callScope = this.callPathSql(filter.paths);
    const params: unknown[] = [...scoped.params, ...callScope.params];
    let toolSql = '';
    if (filter.tool !== undefined && filter.tool !== '') {
      toolSql = ' AND (cf.name = ? OR cf.canonical_name = ?)';
      params.push(filter.tool, filter.tool);
    }
    const rows = this.db
      .prepare(
        `SELECT cf.name, cf.canonical_name, cf.has_result, cf.is_error, cf.severity, cf.category, cf.duration_ms
         FROM call_facts cf WHERE cf.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})${callScope.sql}${toolSql}
         ORDER BY cf.name`,
      )
      .all(...params) as {
      name: string;
      canonical_name: string;
      has_result: number;
      is_error: number;
      severity: string | null;
      category: string | null;
      duration_ms: number | null;
    }[];
    const sessions = this.db
      .prepare(`SELECT COUNT(*) FROM sessions s WHERE ${scoped.sql}`)
      .pluck()
      .get(...scoped.params) as number;
    const acc = new Map<
      string,
      {
        canonicalName: string;
        calls: number;
        paired: number;
        errors: number;
        expected: number;
        durations: number[];
        categories: Record<string, number>;
      }
    >();
    let paired = 0;
    let errors = 0;
    let expected = 0;
    for (const r of rows) {
      let t = acc.get(r.name);
      if (!t) {
        t = {
          canonicalName: r.canonical_name,
          calls: 0,
          paired: 0,
          errors: 0,
          expected: 0,
          durations: [],
          categories: {},
        };
        acc.set(r.name, t);
      }
      t.calls += 1;
      if (r.has_result) {
        t.paired += 1;
        paired += 1;
      }
      if (r.is_error) {
        t.errors += 1;
        errors += 1;
        const category = r.category ?? 'other';
        t.categories[category] = (t.categories[category] ?? 0) + 1;
      }
      if (r.severity === 'expected') {
        t.expected += 1;
        expected += 1;
      }
      if (r.duration_ms !== null) t.durations.push(r.duration_ms);
    }
    const tools: Record<string, ToolStat> = {};
    for (const [name, t] of acc) {
      const sorted = [...t.durations].sort((a, b) => a - b);
      tools[name] = {
        calls: t.calls,
        errors: t.errors,
        expectedErrors: t.expected,
        errorRate: t.calls === 0 ? 0 : t.errors / t.calls,
        durationMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? null },
        categories: t.categories,
        canonicalName: t.canonicalName,
        paired: t.paired,
      };
    }
    return { sessions, calls: rows.length, paired, errors, expectedErrors: expected, tools };
  }

  calls(filter: CallFilter = {}): CallRow[] {
    const scoped = this.scopeSql({
      ...(filter.paths ? { paths: filter.paths } : {}),
      ...(filter.project ? { project: filter.project } : {}),
    });
    const callScope = this.callPathSql(filter.paths);
    const where: string[] = [`cf.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})${callScope.sql}`];
    const params: unknown[] = [...scoped.params, ...callScope.params];
    if (filter.tool) {
      where.push('(cf.name = ? OR cf.canonical_name = ?)');
      params.push(filter.tool, filter.tool);
    }
    if (filter.sessionId) {
      where.push('cf.session_id = ?');
      params.push(filter.sessionId);
    }
    switch (filter.status) {
      case undefined:
        break;
      case 'ok':
        where.push('cf.has_result = 1 AND cf.is_error = 0');
        break;
      case 'error':
        where.push('cf.is_error = 1');
        break;
      case 'pending':
      case 'unanswered':
        where.push('cf.has_result = 0');
        break;
      default:
        filter.status satisfies never;
    }
    if (filter.category) {
      where.push('cf.category = ?');
      params.push(filter.category);
    }
    if (filter.severity) {
      where.push('cf.severity = ?');
      params.push(filter.severity);
    }
    const since = toMs(filter.since);
    if (since !== undefined) {
      where.push('cf.ts_ms >= ?');
      params.push(since);
    }
    const until = toMs(filter.until);
    if (until !== undefined) {
      where.push('cf.ts_ms <= ?');
      params.push(until);
    }
    const limit = filter.limit !== undefined && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const rows = this.db
      .prepare(
        `SELECT cf.*, f.path AS file, s.project_path,
           (SELECT m.mtime_ms FROM files m WHERE m.session_id = cf.session_id AND m.role = 'main' LIMIT 1) AS main_mtime
         FROM call_facts cf JOIN files f ON f.id = cf.file_id LEFT JOIN sessions s ON s.id = cf.session_id
         WHERE ${where.join(' AND ')} ORDER BY cf.ts_ms DESC, cf.tool_use_id${limit}`,
      )
      .all(...params) as {
      tool_use_id: string;
      session_id: string;
      line: number;
      name: string;
      canonical_name: string;
      ts: string | null;
      agent_id: string | null;
      has_result: number;
      is_error: number;
      category: string | null;
      severity: 'expected' | 'error' | null;
      error_message: string | null;
      exit_code: number | null;
      duration_ms: number | null;
      summary: string;
      file: string;
      project_path: string | null;
      main_mtime: number | null;
    }[];
    const out: CallRow[] = [];
    for (const r of rows) {
      const live = r.main_mtime !== null && this.now() - r.main_mtime < LIVE_WINDOW_MS;
      const status: CallRowStatus = r.has_result ? (r.is_error ? 'error' : 'ok') : live ? 'pending' : 'unanswered';
      if (filter.status !== undefined && filter.status !== status) continue;
      out.push({
        sessionId: r.session_id,
        callId: r.tool_use_id,
        tool: r.name,
        canonicalTool: r.canonical_name,
        timestamp: r.ts ?? undefined,
        status,
        category: r.category ?? undefined,
        severity: r.severity ?? undefined,
        errorMessage: r.error_message ?? undefined,
        exitCode: r.exit_code ?? undefined,
        durationMs: r.duration_ms ?? undefined,
        summary: r.summary,
        agentId: r.agent_id ?? undefined,
        projectPath: r.project_path ?? undefined,
        file: r.file,
        line: r.line,
      });
    }
    return out;
  }

  search(query: string, filter: SearchFilter = {}): SearchHit[] {
    const match = toFtsQuery(query);
    if (match === '') return [];
    const scoped = this.scopeSql({
      ...(filter.paths ? { paths: filter.paths } : {}),
      ...(filter.project ? { project: filter.project } : {}),
    });
    const inPaths = this.pathCond(filter.paths ?? [], 'f');
    const where: string[] = [
      'docs_fts MATCH ?',
      `f.session_id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})`,
      inPaths.sql,
    ];
    const params: unknown[] = [match, ...scoped.params, ...inPaths.params];
    if (filter.tool) {
      where.push('(d.tool = ? OR canonical_tool(d.tool) = ?)');
      params.push(filter.tool, filter.tool);
    }
    if (filter.sessionId) {
      where.push('f.session_id = ?');
      params.push(filter.sessionId);
    }
    if (filter.kind) {
      where.push('d.kind = ?');
      params.push(filter.kind);
    }
    const since = toMs(filter.since);
    if (since !== undefined) {
      where.push('d.ts_ms >= ?');
      params.push(since);
    }
    const limit = Math.floor(filter.limit !== undefined && filter.limit > 0 ? filter.limit : 50);
    const rows = this.db
      .prepare(
        `SELECT d.line, d.ts, d.kind, d.tool, d.call_id, d.agent_id, f.path AS file, f.session_id,
           s.project_path, s.title, snippet(docs_fts, 0, char(1), char(2), '…', 16) AS snippet, bm25(docs_fts) AS rank
         FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid JOIN files f ON f.id = d.file_id
           LEFT JOIN sessions s ON s.id = f.session_id
         WHERE ${where.join(' AND ')} ORDER BY rank LIMIT ${limit}`,
      )
      .all(...params) as {
      line: number;
      ts: string | null;
      kind: SearchKind;
      tool: string | null;
      call_id: string | null;
      agent_id: string | null;
      file: string;
      session_id: string;
      project_path: string | null;
      title: string | null;
      snippet: string;
      rank: number;
    }[];
    return rows.map((r) => ({
      sessionId: r.session_id,
      projectPath: r.project_path ?? undefined,
      sessionTitle: r.title ?? undefined,
      timestamp: r.ts ?? undefined,
      kind: r.kind,
      tool: r.tool ?? undefined,
      callId: r.call_id ?? undefined,
      agentId: r.agent_id ?? undefined,
      snippet: r.snippet,
      file: r.file,
      line: r.line,
      rank: r.rank,
    }));
  }

  issues(
    filter: { readonly sessionId?: string; readonly paths?: readonly string[]; readonly limit?: number } = {},
  ): StoredIssue[] {
    const inPaths = this.pathCond(filter.paths ?? [], 'f');
    const where = [inPaths.sql];
    const params: unknown[] = [...inPaths.params];
    if (filter.sessionId) {
      where.push('f.session_id = ?');
      params.push(filter.sessionId);
    }
    const limit = filter.limit !== undefined && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const rows = this.db
      .prepare(
        `SELECT i.code, i.line, i.message, f.path AS file, f.session_id FROM issues i JOIN files f ON f.id = i.file_id
         WHERE ${where.join(' AND ')} ORDER BY f.path, i.line${limit}`,
      )
      .all(...params) as { code: string; line: number; message: string; file: string; session_id: string }[];
    return rows.map((r) => ({ code: r.code, file: r.file, line: r.line, message: r.message, sessionId: r.session_id }));
  }
}

export type { ParseIssue };
