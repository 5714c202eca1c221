import type Database from 'better-sqlite3';

/** Seeks past a damaged leaf of a table before giving up, each twice as far as the last. */
const MAX_PROBES = 48;

/**
 * Every rowid of `table` that can be listed in a damaged index file, sorted: from the table's own b-tree, seeking
 * from one rowid to the next (a seek that meets a damaged leaf is tried again further on, each probe twice as far as
 * the last, so that a damaged last leaf ends the search rather than the table), and from each of the table's indexes,
 * whose pages are others (a rowid on a damaged leaf of the table is often still listed there). Never throws.
 */
export function rowidsOf(aside: Database.Database, table: string): number[] {
  const ids = new Set<number>();
  let next: Database.Statement;
  try {
    next = aside.prepare(`SELECT rowid FROM "${table}" WHERE rowid > ? ORDER BY rowid LIMIT 1`).pluck();
  } catch {
    // no such table (an older index): nothing to list
    return [];
  }
  let at = 0;
  for (let step = 1, probes = 0; probes < MAX_PROBES; ) {
    let id: unknown;
    try {
      id = next.get(at);
    } catch {
      at += step;
      step *= 2;
      probes += 1;
      continue;
    }
    if (id === undefined) break;
    ids.add(Number(id));
    at = Number(id);
    step = 1;
    probes = 0;
  }
  let indexes: string[] = [];
  try {
    indexes = (aside.prepare(`PRAGMA index_list("${table}")`).all() as { name: string }[]).map((i) => i.name);
  } catch {
    // the schema's page damaged: the table's own rowids only
  }
  for (const index of indexes) {
    try {
      for (const id of aside.prepare(`SELECT rowid FROM "${table}" INDEXED BY "${index}"`).pluck().iterate())
        ids.add(Number(id));
    } catch {
      // a damaged page of the index: the rowids read before it are kept
    }
  }
  return [...ids].sort((a, b) => a - b);
}
