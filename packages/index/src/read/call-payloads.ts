/**
 * Tool inputs and results are stored once, in the transcripts (and their archive): the `calls` and `results` rows
 * keep where each one is (file, line, byte offset), and what a call says is read back from there when it is needed —
 * a fact no parse worker computed (a call and its result in two files), a result another session's file holds.
 */
import type Database from 'better-sqlite3';
import type { Archive } from '../archive/archive.js';
import type { ReadRecords, RowPlace } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import { resultIn, type StoredResult } from '../write/call-fact.js';
import { DOC_FILE_COLUMNS, type DocFileRow, fileOfRow } from './file-of-row.js';
import { type RecordPlace, RecordReader } from './record-reader.js';

/** Reads the records at stored rows' places: the file on disk, else its archived bytes. */
export function recordsOfRows(db: Database.Database, archive: Archive): ReadRecords {
  const reader = new RecordReader(archive.openBytes);
  return async (places: readonly RowPlace[]) => {
    const fileRow = prepared(db, `SELECT ${DOC_FILE_COLUMNS} FROM files f WHERE f.id = ?`);
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
 * The results of these ids at these places, read back: for each id its first row whose record still holds it. The
 * first row of each id is read, then the others of the ids not found that way (once a copy was rewritten or lost).
 */
export async function resultsAt<Row extends RowPlace & { readonly id: string }>(
  read: ReadRecords,
  rows: readonly Row[],
): Promise<Map<string, { readonly row: Row; readonly result: StoredResult }>> {
  const out = new Map<string, { readonly row: Row; readonly result: StoredResult }>();
  const take = async (some: readonly Row[]) => {
    const records = await read(some);
    some.forEach((row, i) => {
      const result = out.has(row.id) ? undefined : resultIn(records[i] ?? [], row.id);
      if (result !== undefined) out.set(row.id, { row, result });
    });
  };
  const firsts = new Map<string, Row>();
  for (const row of rows) if (!firsts.has(row.id)) firsts.set(row.id, row);
  await take([...firsts.values()]);
  const others = rows.filter((row) => !out.has(row.id) && firsts.get(row.id) !== row);
  if (others.length > 0) await take(others);
  return out;
}
