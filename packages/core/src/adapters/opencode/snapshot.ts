import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import type Database from 'better-sqlite3';
import { isRecord, str } from '../../internal/guards.js';

/*
 * OpenCode keeps a session in rows of a SQLite database (1.2 and later: `opencode.db`, tables `session`, `message`,
 * `part`) or in a tree of JSON files (before: `storage/session/<project>/<id>.json`, `storage/message/<session>/
 * <id>.json`, `storage/part/<message>/<id>.json`). AgentDash's index reads files and resumes at byte offsets, so
 * each session is copied, read-only, into a snapshot file of AgentDash's own (never into OpenCode's folder): one JSON
 * line per row, in the session's order, rewritten whole when the session changed. The index sees that file change
 * (size, mtime) and reads it again whole (the adapter is not append-only).
 *
 * A snapshot file: line 1 `{"type":"snapshot", source, from, sessionId, signature}`, line 2 `{"type":"session",
 * "session":{…}}`, then each message `{"type":"message","message":{…}}` followed by its parts `{"type":"part",
 * "part":{…}}`. Rows of the database are written as OpenCode's JSON files hold them: `data` with `id`, `sessionID`,
 * `messageID` put back.
 */

/** The snapshot layout's version: a snapshot written by another layout is written again. */
const SNAPSHOT_FORMAT = 'v1';

/** One session of a source, as a snapshot needs it. */
export interface SourceSession {
  readonly id: string;
  readonly parentId: string | undefined;
  /** Changes whenever the session's rows change: the snapshot is rewritten when it differs. */
  readonly signature: string;
}

/** Where a session's rows are: a database, or the JSON tree. */
export interface OpenCodeSource {
  readonly kind: 'db' | 'storage';
  /** `opencode.db`, or the `storage/` folder. */
  readonly path: string;
}

/** A folder of AgentDash's own for the snapshots of one source (created owner-only). */
export function snapshotFolderOf(source: OpenCodeSource): string {
  const key = crypto().createHash('sha1').update(`${source.kind}:${source.path}`).digest('hex').slice(0, 16);
  return join(snapshotRoot(), key);
}

let root: string | undefined;

/** The folder holding every snapshot folder: `agentdash-opencode-<uid>` in the temporary folder. */
export function snapshotRoot(): string {
  if (root !== undefined) return root;
  let uid = 'user';
  try {
    uid = String(userInfo().uid);
  } catch {}
  root = join(tmpdir(), `agentdash-opencode-${uid}`);
  return root;
}

/** Put the snapshots elsewhere (tests). */
export function setSnapshotRoot(folder: string): void {
  root = folder;
}

/** better-sqlite3, loaded the first time a database is read (its native addon is not needed by the other agents). */
let sqlite: typeof Database | undefined;

/**
 * node:crypto, loaded the first time a snapshot is named or written: the agent registry (a warm command's start)
 * imports this module, and loading crypto there costs more than the rest of the registry.
 */
let nodeCrypto: typeof import('node:crypto') | undefined;
const crypto = () => (nodeCrypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

/**
 * Open OpenCode's database read-only, never creating a file in its folder. OpenCode keeps it in WAL mode: while
 * the client runs, `-wal` and `-shm` exist and a read-only reader sees the last commit through them, as SQLite's
 * readers do. With them absent (no client running), SQLite would create them to open a WAL database even read-only:
 * then the database is copied to a folder of AgentDash's own and the copy opened. A database in rollback mode is
 * opened in place. A busy one waits a little, then throws. Call `close` when done.
 */
export function openReadOnly(path: string): { db: Database.Database; close(): void } {
  sqlite ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  const wal = isWalMode(path);
  const live = statOrNull(`${path}-wal`) !== null && statOrNull(`${path}-shm`) !== null;
  if (!wal || live) {
    const db = new sqlite(path, { readonly: true, fileMustExist: true, timeout: 2_000 });
    return { db, close: () => db.close() };
  }
  mkdirSync(snapshotRoot(), { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(join(snapshotRoot(), 'db-'));
  const copy = join(folder, basename(path));
  copyFileSync(path, copy);
  const db = new sqlite(copy, { readonly: true, fileMustExist: true, timeout: 2_000 });
  return {
    db,
    close: () => {
      db.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Whether a SQLite file's header says WAL (its read and write versions, bytes 18 and 19, are 2). */
function isWalMode(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const header = Buffer.alloc(20);
    readSync(fd, header, 0, 20, 0);
    return header[18] === 2 && header[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statOrNull(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** A source opened for one discovery: its sessions, each session's lines; `close` when done. */
export interface SourceReader {
  sessions(): SourceSession[];
  lines(id: string): string[];
  close(): void;
}

/** Open a source (a database once, whatever number of sessions is read). Throws when it cannot be read. */
export function openSource(source: OpenCodeSource): SourceReader {
  if (source.kind === 'storage') {
    return { sessions: () => storageSessions(source.path), lines: (id) => storageLines(source.path, id), close() {} };
  }
  const { db, close } = openReadOnly(source.path);
  return { sessions: () => dbSessions(db), lines: (id) => dbLines(db, id), close };
}

function dbSessions(db: Database.Database): SourceSession[] {
  {
    const rows = db
      .prepare(
        `SELECT s.id, s.parent_id, s.time_updated,
           (SELECT count(*) || ':' || coalesce(max(m.time_updated), 0) FROM message m WHERE m.session_id = s.id) AS m,
           (SELECT count(*) || ':' || coalesce(max(p.time_updated), 0) FROM part p WHERE p.session_id = s.id) AS p
         FROM session s ORDER BY s.id`,
      )
      .all() as { id: string; parent_id: string | null; time_updated: number; m: string; p: string }[];
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id ?? undefined,
      signature: `db:${r.time_updated}:${r.m}:${r.p}`,
    }));
  }
}

function storageSessions(storage: string): SourceSession[] {
  const out: SourceSession[] = [];
  const sessionRoot = join(storage, 'session');
  for (const project of listNames(sessionRoot)) {
    for (const name of listNames(join(sessionRoot, project))) {
      if (!name.endsWith('.json')) continue;
      const file = join(sessionRoot, project, name);
      const info = readJson(file);
      const id = str(info?.id) ?? basename(name, '.json');
      const messages = listNames(join(storage, 'message', id));
      let newest = statSync(file).mtimeMs;
      let parts = 0;
      for (const message of messages) {
        const folder = join(storage, 'part', basename(message, '.json'));
        const names = listNames(folder);
        parts += names.length;
        newest = Math.max(newest, mtimeOf(join(storage, 'message', id, message)), mtimeOf(folder));
      }
      out.push({
        id,
        parentId: str(info?.parentID),
        signature: `storage:${statSync(file).size}:${messages.length}:${parts}:${newest}`,
      });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function dbLines(db: Database.Database, id: string): string[] {
  {
    const session = db.prepare('SELECT * FROM session WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    if (session === undefined) return [];
    const lines = [JSON.stringify({ type: 'session', session })];
    const messages = db
      .prepare('SELECT id, session_id, data FROM message WHERE session_id = ? ORDER BY time_created, id')
      .all(id) as { id: string; session_id: string; data: string }[];
    const parts = db
      .prepare('SELECT id, message_id, session_id, data FROM part WHERE session_id = ? ORDER BY message_id, id')
      .all(id) as { id: string; message_id: string; session_id: string; data: string }[];
    const byMessage = new Map<string, typeof parts>();
    for (const part of parts) byMessage.set(part.message_id, [...(byMessage.get(part.message_id) ?? []), part]);
    const shown = new Set<string>();
    for (const m of messages) {
      lines.push(JSON.stringify({ type: 'message', message: withIds(m.data, { id: m.id, sessionID: m.session_id }) }));
      shown.add(m.id);
      for (const p of byMessage.get(m.id) ?? []) lines.push(partLine(p));
    }
    // Parts whose message row is missing are kept, at the end.
    for (const p of parts) if (!shown.has(p.message_id)) lines.push(partLine(p));
    return lines;
  }
}

function partLine(p: { id: string; message_id: string; session_id: string; data: string }): string {
  return JSON.stringify({
    type: 'part',
    part: withIds(p.data, { id: p.id, messageID: p.message_id, sessionID: p.session_id }),
  });
}

/** A row's `data` JSON with its ids put back in front; data that is not an object is kept under `data`. */
function withIds(data: string, ids: Record<string, string>): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return { ...ids, data };
  }
  return isRecord(parsed) ? { ...ids, ...parsed } : { ...ids, data: parsed };
}

function storageLines(storage: string, id: string): string[] {
  const lines: string[] = [];
  for (const project of listNames(join(storage, 'session'))) {
    const file = join(storage, 'session', project, `${id}.json`);
    const info = readJson(file);
    if (info !== undefined) {
      lines.push(JSON.stringify({ type: 'session', session: info }));
      break;
    }
  }
  if (lines.length === 0) return [];
  const messages = listNames(join(storage, 'message', id))
    .filter((n) => n.endsWith('.json'))
    .map((n) => readJson(join(storage, 'message', id, n)) ?? { id: basename(n, '.json'), unreadable: true });
  messages.sort((a, b) => createdOf(a) - createdOf(b) || String(a.id).localeCompare(String(b.id)));
  for (const message of messages) {
    lines.push(JSON.stringify({ type: 'message', message }));
    const folder = join(storage, 'part', String(message.id));
    for (const name of listNames(folder).filter((n) => n.endsWith('.json'))) {
      const part = readJson(join(folder, name)) ?? { id: basename(name, '.json'), unreadable: true };
      lines.push(JSON.stringify({ type: 'part', part }));
    }
  }
  return lines;
}

function createdOf(message: Record<string, unknown>): number {
  const time = isRecord(message.time) ? message.time : {};
  return typeof time.created === 'number' ? time.created : 0;
}

/**
 * Bring a session's snapshot up to date: rewritten (to a temporary name, then renamed) when its signature differs
 * from the one in its first line. Returns the snapshot's path.
 */
export function syncSnapshot(
  source: OpenCodeSource,
  reader: SourceReader,
  session: SourceSession,
  folder: string,
): string {
  const path = join(folder, `${session.id}.jsonl`);
  const signature = `${SNAPSHOT_FORMAT}:${session.signature}`;
  if (headerOf(path)?.signature === signature) return path;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileSync(join(folder, 'source.json'), `${JSON.stringify(source)}\n`);
  const header = {
    type: 'snapshot',
    source: source.path,
    from: source.kind,
    sessionId: session.id,
    parentId: session.parentId,
    signature,
  };
  const body = [JSON.stringify(header), ...reader.lines(session.id)].join('\n');
  const temporary = `${path}.${crypto().randomUUID()}.tmp`;
  writeFileSync(temporary, `${body}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return path;
}

/** The first line of a snapshot, parsed; undefined when there is none or it is not one. */
export function headerOf(path: string): Record<string, unknown> | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, n).toString('utf8');
    const end = text.indexOf('\n');
    const parsed: unknown = JSON.parse(end === -1 ? text : text.slice(0, end));
    return isRecord(parsed) && parsed.type === 'snapshot' ? parsed : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The source a snapshot folder was made from (its `source.json`). */
export function sourceOfFolder(folder: string): OpenCodeSource | undefined {
  const parsed = readJson(join(folder, 'source.json'));
  const kind = parsed?.kind;
  const path = str(parsed?.path);
  return (kind === 'db' || kind === 'storage') && path !== undefined ? { kind, path } : undefined;
}

function listNames(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
