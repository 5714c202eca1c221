/** The connection's archive reader, beside the prepared statements (`prepared`, kept in prepared.ts). */
import type Database from 'better-sqlite3';
import { Archive } from '../archive/archive.js';

export { prepared, type RowMode } from './prepared.js';

const archives = new WeakMap<Database.Database, Archive>();

/** The connection's archive reader (its statements are prepared once, not for every load or search). */
export function archiveOf(db: Database.Database): Archive {
  let archive = archives.get(db);
  if (archive === undefined) {
    archive = new Archive(db);
    archives.set(db, archive);
  }
  return archive;
}
