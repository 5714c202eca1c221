/**
 * Prepared statements kept per connection, by their SQL: the server asks the same few queries thousands of times
 * (a session's reference for every listed row, a session's files for every load), and preparing one costs more
 * than running it. Not for `iterate` (a statement being iterated cannot be run again meanwhile). And a class's
 * statements prepared each on first use (`preparedOnUse`). Light (SQLite's types only): the warm path uses both.
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

/**
 * Makers of statements, by name. (Typed by what every statement has, not as `Database.Statement`: that return type
 * would be what `db.prepare` infers its bind parameters from.)
 */
type StatementMakers = Record<string, () => Pick<Database.Statement, 'source'>>;

/** What `preparedOnUse` gives for its makers: each maker's statement, under the maker's name. */
export type PreparedOnUse<M extends StatementMakers> = {
  readonly [K in keyof M]: ReturnType<M[K]>;
};

/**
 * A class's statements, each prepared the first time it is read (by its maker) and kept, a plain property from then
 * on. For statements most runs never use: a refresh that finds nothing new to write runs none of the writer's.
 */
export function preparedOnUse<M extends StatementMakers>(makers: M): PreparedOnUse<M> {
  const statements = {} as PreparedOnUse<M>;
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(statements, name, {
      configurable: true,
      enumerable: true,
      get: () => {
        const statement = make();
        Object.defineProperty(statements, name, { value: statement, enumerable: true });
        return statement;
      },
    });
  }
  return statements;
}
