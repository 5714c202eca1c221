/**
 * A transcript that loses records on disk (an editor or sync tool cut it, a disk-full write, a Gemini `.json` left
 * half rewritten or rewritten with another shape) never takes them out of the index: the file is held at its last
 * complete version (its rows stay, its reads come from the archive, `files.archived = HELD`), the copy on disk is
 * archived beside it (`Archive.keepVersion`) and a `version_kept` issue says which file and why. Once a read of the
 * file holds every record again, it is read normally and the kept copy goes. A document caught mid-rewrite is first
 * given the time a rewrite takes (`awaitRewrite`).
 */
import type { DiscoveredFile, ParseIssue } from '@agentdash/core';
import type Database from 'better-sqlite3';
import type { FileRow } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import { type Archive, HELD } from './archive.js';

/** The issue code of a file held at its last complete version. */
export const VERSION_KEPT = 'version_kept';

/** What a file held before it was read again from byte 0: its records' ids and count, and why it is read again. */
export interface HeldBefore {
  readonly ids: ReadonlySet<string>;
  /** Records read from it (`files.records`). */
  readonly records: number;
  readonly reason: string;
}

/** The ids of a file's stored records (a uuid's 16 bytes or its text), as comparable strings. */
function recordIdsOf(db: Database.Database, fileId: number): Set<string> {
  // A subagent's records copied into the file (copy_of) are not its own: a read that no longer takes them loses none.
  const rows = prepared(
    db,
    'SELECT uuid_raw FROM records WHERE file_id = ? AND uuid_raw IS NOT NULL AND copy_of IS NULL',
  )
    .pluck()
    .all(fileId) as (Buffer | string)[];
  return new Set(rows.map((u) => (typeof u === 'string' ? `s${u}` : `x${u.toString('hex')}`)));
}

/** Why a stored file is read again from byte 0, in words. */
function changeOf(row: FileRow, file: DiscoveredFile): string {
  if (file.size < row.parsed_offset) return `shrank from ${row.parsed_offset} to ${file.size} bytes`;
  if (row.ino !== file.ino) return 'was replaced by another file';
  return 'was rewritten';
}

/** What a stored file holds before it is read again from byte 0 (undefined when it holds no record). */
export function heldBefore(db: Database.Database, row: FileRow, file: DiscoveredFile): HeldBefore | undefined {
  if (row.records === 0) return undefined;
  return { ids: recordIdsOf(db, row.id), records: row.records, reason: changeOf(row, file) };
}

/**
 * Records the file held before that its new read does not hold: by id (a record's count may differ between reads in
 * pieces and a whole read, its id does not), else, for a file whose records have none, the drop in their count.
 */
export function lostRecords(db: Database.Database, before: HeldBefore, fileId: number, recordsNow: number): number {
  if (before.ids.size === 0) return Math.max(0, before.records - recordsNow);
  const now = recordIdsOf(db, fileId);
  let lost = 0;
  for (const id of before.ids) if (!now.has(id)) lost += 1;
  return lost;
}

/**
 * The `version_kept` issue's message. `problem`: the new read's first issue, `pending`: the bytes it left unfinished
 * at the end (a write in progress); either may say why.
 */
export function lossMessage(
  before: HeldBefore,
  lost: number,
  kept: boolean,
  problem: ParseIssue | undefined,
  pending: number,
): string {
  const why =
    problem !== undefined
      ? ` (${problem.code} at line ${problem.line}: ${problem.message.slice(0, 200)})`
      : pending > 0
        ? ` (its last ${pending} bytes are unfinished: caught mid-write?)`
        : '';
  // Lost records are counted by id (`lostRecords`): of the records with one when some have none (a client's
  // summaries and snapshots), said with the count of every record, the figure the versions list gives.
  const ids = before.ids.size;
  const of =
    ids === 0 || ids === before.records
      ? `${before.records} records`
      : `${ids} records with an id, of ${before.records} in all`;
  const held = `${before.reason} and lost ${lost} of its ${of}${why}`;
  return kept
    ? `${held}: its last complete version is shown, and the copy on disk is kept beside it in the archive`
    : `${held}, which were not archived: the copy on disk is shown`;
}

/** Replace the file's `version_kept` issue (line 0) with this message. */
export function noteLoss(db: Database.Database, fileId: number, message: string): void {
  prepared(db, 'DELETE FROM issues WHERE file_id = ? AND code = ?').run(fileId, VERSION_KEPT);
  prepared(db, 'INSERT INTO issues (file_id, line, code, message) VALUES (?, 0, ?, ?)').run(
    fileId,
    VERSION_KEPT,
    message,
  );
}

/**
 * Hold a stored file at its last complete version (its rows as they are, rolled back by the caller): the copy on
 * disk is archived beside it when archiving is on, and the file's size, mtime and inode are the copy's, so that it
 * is read again only when it changes again.
 */
export async function holdFile(
  db: Database.Database,
  archive: Archive,
  row: FileRow,
  file: DiscoveredFile,
  archiving: boolean,
  message: string,
): Promise<void> {
  if (archiving) await archive.keepVersion(file, message);
  prepared(db, 'UPDATE files SET size = ?, mtime_ms = ?, ino = ?, archived = ? WHERE id = ?').run(
    file.size,
    file.mtimeMs,
    file.ino,
    HELD,
    row.id,
  );
  noteLoss(db, row.id, message);
}

/**
 * A stored document its client rewrites whole (Gemini's .json), caught mid-rewrite (its rows as they are, rolled back
 * by the caller): nothing of the read is kept and nothing is said. Stored with mtime 0, it is read again at the next
 * look and once the rewrite settles (`heldWhileWriting`, the live server's held-files.ts), and held at its last
 * version with an issue (`holdFile`) only if it is left cut short. Its reads come from the archive meanwhile when the
 * archive holds its last version (`archived`), as a held file's do.
 */
export function awaitRewrite(db: Database.Database, row: FileRow, file: DiscoveredFile, archived: boolean): void {
  if (archived)
    prepared(db, 'UPDATE files SET size = ?, mtime_ms = 0, ino = ?, archived = ? WHERE id = ?').run(
      file.size,
      file.ino,
      HELD,
      row.id,
    );
  else prepared(db, 'UPDATE files SET mtime_ms = 0 WHERE id = ?').run(row.id);
}
