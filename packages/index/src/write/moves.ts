/**
 * A transcript that moved (its project folder renamed, a session folder moved with it) is the same file: found at a
 * new path while its stored path is gone, with the bytes the index read of it, it keeps its rows, its calls and its
 * archive under the new path, instead of becoming a new session beside an archived copy of the old one (whose calls
 * it would not own: the first occurrence of a call owns it).
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { DiscoveredFile } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { HELD } from '../archive/archive.js';
import type { FileRow } from '../file-row.js';
import { fingerprintOf } from './fingerprint.js';

/** A stored file (`from`) found again at another path (`to`). */
export interface Move {
  readonly from: FileRow;
  readonly to: DiscoveredFile;
}

/**
 * The new files (`fresh`: discovered, not stored) that are stored files moved: same name and agent, the stored path
 * gone from disk (archived, or not discovered and absent), and the new file's first bytes and those before the stored
 * offset those the index read (its fingerprint). Nothing is looked up when no file is new, or the index is empty.
 */
export async function findMoves(
  db: Database.Database,
  fresh: readonly DiscoveredFile[],
  discovered: ReadonlySet<string>,
): Promise<Move[]> {
  if (fresh.length === 0) return [];
  const names = new Map<string, DiscoveredFile[]>();
  for (const file of fresh) {
    const name = basename(file.path);
    const same = names.get(name) ?? [];
    if (same.length === 0) names.set(name, same);
    same.push(file);
  }
  const candidates: FileRow[] = [];
  for (const row of db.prepare('SELECT * FROM files WHERE parsed_offset > 0').iterate() as Iterable<FileRow>) {
    if (names.has(basename(row.path)) && row.archived !== HELD) candidates.push(row);
  }
  const moves: Move[] = [];
  const taken = new Set<string>();
  for (const row of candidates) {
    if (row.archived !== 1 && (discovered.has(row.path) || existsSync(row.path))) continue;
    for (const file of names.get(basename(row.path)) ?? []) {
      if (taken.has(file.path) || file.agent !== row.agent || file.size < row.parsed_offset) continue;
      if ((await fingerprintOf(file.path, row.parsed_offset)) !== row.tail) continue;
      taken.add(file.path);
      moves.push({ from: row, to: file });
      break;
    }
  }
  return moves;
}
