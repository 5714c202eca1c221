/** Keeping a file that could not be imported as a stored issue, so one bad file never stops a refresh. */
import type { DiscoveredFile } from '@agentdash/core';
import type Database from 'better-sqlite3';

/** The issue code of a file whose import failed (see `recordImportFailure`). */
export const IMPORT_FAILED = 'import_failed';

/**
 * Store an `import_failed` issue (line 0) for a file whose import threw, and note its size, mtime and inode so the
 * next refresh does not retry it until it changes. What was imported of it before stays; the failed transaction was
 * rolled back. Rethrows the original error when even this cannot be stored (a broken database).
 */
export function recordImportFailure(
  db: Database.Database,
  file: DiscoveredFile,
  sessionId: string,
  error: unknown,
  recompute: (sessionId: string) => void,
): void {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  try {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.transaction(() => {
      db.prepare(
        `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino)
         VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0) ON CONFLICT(path) DO NOTHING`,
      ).run(file.path, file.projectDir, file.role, sessionId, file.agentId ?? null, file.metaPath ?? null);
      const id = db.prepare('SELECT id FROM files WHERE path = ?').pluck().get(file.path) as number;
      db.prepare('DELETE FROM issues WHERE file_id = ? AND code = ?').run(id, IMPORT_FAILED);
      db.prepare('INSERT INTO issues (file_id, line, code, message) VALUES (?, 0, ?, ?)').run(
        id,
        IMPORT_FAILED,
        `could not be indexed (${reason.slice(0, 500)}); the rest of the refresh went on`,
      );
      db.prepare('UPDATE files SET size = ?, mtime_ms = ?, ino = ? WHERE id = ?').run(
        file.size,
        file.mtimeMs,
        file.ino,
        id,
      );
      recompute(db.prepare('SELECT session_id FROM files WHERE id = ?').pluck().get(id) as string);
    })();
  } catch {
    throw error;
  }
}
