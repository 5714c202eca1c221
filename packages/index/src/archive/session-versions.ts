/**
 * The versions of a session whose files lost records on disk (issue 36, "nothing lost"): the index shows the last
 * complete version of each such file (held, `versions.ts`) and keeps the newer copy that was on disk beside it in the
 * archive (`Archive.keepVersion`). Here the user can see that the newer partial copy exists (its bytes, its records,
 * why it was not taken) and look at it: the session loaded with each held file read from its kept copy.
 * @module
 */
import { adapterForFile, loadSession as coreLoadSession, type OpenBytes, type Session } from '@agentdash/core';
import { UnknownSessionError } from '../errors.js';
import { idOfKey } from '../file-row.js';
import type { Store } from '../read/scope.js';
import { sessionFiles, sessionKeyOfRef } from '../read/session-queries.js';
import { archiveOf, prepared } from '../schema/statements.js';
import { versionKey } from './archive.js';

/** One file of a session held at its last complete version, and the newer partial copy kept beside it. */
export interface HeldFile {
  readonly path: string;
  readonly role: 'main' | 'subagent';
  /** The last complete version: what the session shows. */
  readonly complete: { readonly bytes: number; readonly records: number };
  /** The newer copy that was on disk (shorter, replaced or no longer parsing), kept in the archive. */
  readonly partial: {
    readonly bytes: number;
    readonly records: number;
    /** Why it is not shown (the `version_kept` issue's message). */
    readonly reason: string;
    /** When the copy was first kept (ISO time). */
    readonly keptAt: string;
  };
}

/** A session's versions: `held` is empty when every file is shown as it is on disk (or as archived). */
export interface SessionVersions {
  readonly sessionId: string;
  readonly held: readonly HeldFile[];
}

interface HeldRow {
  readonly path: string;
  readonly role: 'main' | 'subagent';
  readonly records: number;
  readonly archived_bytes: number | null;
  readonly file_size: number;
  readonly reason: string;
  readonly kept_ms: number;
}

function heldRows(store: Store, key: string): HeldRow[] {
  return prepared(
    store.db,
    `SELECT f.path, f.role, f.records, a.archived_bytes, v.file_size, v.reason, v.kept_ms
       FROM files f JOIN archive_versions v ON v.path = f.path LEFT JOIN archive_files a ON a.path = f.path
       WHERE f.session_id = ? ORDER BY f.role, f.path`,
  ).all(key) as HeldRow[];
}

function keyOf(store: Store, ref: string): string {
  const key = sessionKeyOfRef(store, ref);
  if (key === undefined) throw new UnknownSessionError(ref);
  return key;
}

/** Held files read from the copy kept beside them; every other file as the session reads it. */
function partialBytes(store: Store, held: ReadonlySet<string>): OpenBytes {
  const archive = archiveOf(store.db);
  return async (path) => (held.has(path) ? archive.source(versionKey(path)) : archive.openBytes(path));
}

/** Records a file's adapter reads from `open`'s bytes of it (streamed: never the whole file in memory). */
async function countRecords(store: Store, key: string, path: string, open: OpenBytes): Promise<number> {
  const group = sessionFiles(store, key);
  const file = [group?.main, ...(group?.subagents ?? [])].find((f) => f?.path === path);
  if (!file) return 0;
  let records = 0;
  await adapterForFile(file).streamRecords(
    file,
    (event) => {
      if (event.kind === 'record') records += 1;
    },
    { open },
  );
  return records;
}

/** The session's held files and the partial copies kept beside them (none: `held` is empty). */
export async function sessionVersions(store: Store, ref: string): Promise<SessionVersions> {
  const key = keyOf(store, ref);
  const rows = heldRows(store, key);
  const open = partialBytes(store, new Set(rows.map((r) => r.path)));
  const held: HeldFile[] = [];
  for (const row of rows) {
    held.push({
      path: row.path,
      role: row.role,
      complete: { bytes: row.archived_bytes ?? 0, records: row.records },
      partial: {
        bytes: row.file_size,
        records: await countRecords(store, key, row.path, open),
        reason: row.reason,
        keptAt: new Date(row.kept_ms).toISOString(),
      },
    });
  }
  return { sessionId: idOfKey(key), held };
}

/**
 * The session as its newer partial copies make it: each held file read from the copy kept beside it, the others as
 * usual. Undefined when no file of the session is held.
 */
export async function loadPartialSession(store: Store, ref: string): Promise<Session | undefined> {
  const key = keyOf(store, ref);
  const rows = heldRows(store, key);
  const group = sessionFiles(store, key);
  if (rows.length === 0 || !group) return undefined;
  return coreLoadSession(group, { live: false, open: partialBytes(store, new Set(rows.map((r) => r.path))) });
}
