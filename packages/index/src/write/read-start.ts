/**
 * Where the read of a stored file that changed starts: from byte 0 (`whole`), from byte 0 only because it holds
 * copies taken as a thread (`copies`: its new bytes are appended records all the same), or at its parsed offset
 * (`append`).
 */
import type { DiscoveredFile, OpenBytes } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { adapterForFile } from '../agents.js';
import { HELD } from '../archive/archive.js';
import type { FileRow } from '../file-row.js';
import { hasCopies } from './copy-rows.js';
import { fingerprintOf } from './fingerprint.js';

export type ReadStart = 'whole' | 'copies' | 'append';

export async function readStartOf(
  db: Database.Database,
  storedRow: FileRow | undefined,
  file: DiscoveredFile,
  sessionId: string,
  readAgain: boolean,
  openBytes: OpenBytes,
): Promise<ReadStart> {
  const whole =
    storedRow === undefined ||
    readAgain ||
    // Held at its last complete version: the copy on disk is read whole again whenever it changes.
    storedRow.archived === HELD ||
    storedRow.ino !== file.ino ||
    file.size < storedRow.parsed_offset ||
    storedRow.session_id !== sessionId ||
    // A format rewritten in place (not append-only) is read whole again on any change.
    !adapterForFile(file).capabilities.appendOnly ||
    // Rewritten in place (same inode, not shorter): the bytes before the offset are not the ones we read.
    (await fingerprintOf(file.path, storedRow.parsed_offset, openBytes)) !== storedRow.tail;
  if (whole) return 'whole';
  // Its copies taken as a thread are each taken once in the file: a read of its new bytes alone could not tell.
  return hasCopies(db, storedRow.id) ? 'copies' : 'append';
}
