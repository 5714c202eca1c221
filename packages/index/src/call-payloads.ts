/**
 * Tool inputs and results are stored once, in the transcripts (and their archive): the `calls` and `results` rows
 * keep where each one is (file, line, byte offset), and what a call says is read back from there when it is needed —
 * a fact no parse worker computed (a call and its result in two files), a result another session's file holds.
 */
import type Database from 'better-sqlite3';
import type { Archive } from './archive.js';
import { type StoredResult, storedResultOf } from './call-fact.js';
import { DOC_FILE_COLUMNS, type DocFileRow, fileOfRow } from './file-of-row.js';
import type { ReadRecords, RowPlace } from './import.js';
import { type RecordPlace, RecordReader } from './record-reader.js';

/** Reads the records at stored rows' places: the file on disk, else its archived bytes. */
export function recordsOfRows(db: Database.Database, archive: Archive): ReadRecords {
  const reader = new RecordReader(archive.openBytes);
  const fileRow = db.prepare(`SELECT ${DOC_FILE_COLUMNS} FROM files f WHERE f.id = ?`);
  return async (places: readonly RowPlace[]) => {
    const files = new Map<number, DocFileRow | undefined>();
    const found: (RecordPlace | undefined)[] = places.map((place) => {
      if (!files.has(place.fileId)) files.set(place.fileId, fileRow.get(place.fileId) as DocFileRow | undefined);
      const row = files.get(place.fileId);
      return row === undefined ? undefined : { file: fileOfRow(row), line: place.line, offset: place.offset };
    });
    const readable = found.filter((p): p is RecordPlace => p !== undefined);
    const records = await reader.recordsAt(readable);
    let next = 0;
    return found.map((place) => (place === undefined ? [] : (records[next++] ?? [])));
  };
}

/**
 * The results of these ids at these places, read back: for each id its first row whose record still holds it (the
 * first row of each id is read, the next ones only for the ids not found yet; an id none of whose records holds it
 * is left out).
 */
export async function resultsAt<Row extends RowPlace & { readonly id: string }>(
  read: ReadRecords,
  rows: readonly Row[],
): Promise<Map<string, { readonly row: Row; readonly result: StoredResult }>> {
  const out = new Map<string, { readonly row: Row; readonly result: StoredResult }>();
  let left = rows;
  while (left.length > 0) {
    const round: Row[] = [];
    const later: Row[] = [];
    const inRound = new Set<string>();
    for (const row of left) {
      if (out.has(row.id)) continue;
      if (inRound.has(row.id)) later.push(row);
      else {
        inRound.add(row.id);
        round.push(row);
      }
    }
    const records = await read(round);
    round.forEach((row, i) => {
      for (const record of records[i] ?? []) {
        const result = storedResultOf(record, row.id);
        if (result === undefined) continue;
        out.set(row.id, { row, result });
        return;
      }
    });
    left = later;
  }
  return out;
}
