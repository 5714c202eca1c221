/**
 * Prepared statements kept per connection, by their SQL: the server asks the same few queries thousands of times
 * (a session's reference for every listed row, a session's files for every load), and preparing one costs more
 * than running it. Only for `get`/`all` (a statement being iterated cannot be run again meanwhile). Light (SQLite's
 * types only): the warm path's session list uses it too.
 */
import type Database from 'better-sqlite3';

/** How rows come back: objects, the first column's values (`pluck`), or arrays (`raw`). */
export type RowMode = 'rows' | 'pluck' | 'raw';

/** Distinct SQL texts kept per connection (filters build a few variants each); the oldest goes first. */
const MAX_STATEMENTS = 500;

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** `db.prepare(sql)` in the given row mode, prepared once per connection. */
export function prepared(db: Database.Database, sql: string, mode: RowMode = 'rows'): Database.Statement {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  const key = `${mode}\u0000${sql}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const statement = db.prepare(sql);
  if (mode === 'pluck') statement.pluck();
  else if (mode === 'raw') statement.raw();
  cache.set(key, statement);
  if (cache.size > MAX_STATEMENTS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return statement;
}
