/**
 * Where the read of a stored file that changed starts: from byte 0 (`whole`), or at its parsed offset (`append`; a
 * file holding copies taken as a thread too: the read knows them, `takenCopies`).
 */
import type { DiscoveredFile, OpenBytes } from '@agentdash/core';
import { adapterForFile } from '../agents.js';
import { HELD } from '../archive/archive.js';
import type { FileRow } from '../file-row.js';
import { fingerprintOf } from './fingerprint.js';

export type ReadStart = 'whole' | 'append';

export async function readStartOf(
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
  return whole ? 'whole' : 'append';
}
