/**
 * Bringing a database to this program's schema (see schema-version.ts for its two versions):
 * - the archive and the settings by their append-only steps (schema-archive.ts), to `SCHEMA_VERSION`;
 * - every derived table, when the database's `derived_version` is not `DERIVED_VERSION`: all of them dropped (with
 *   whatever an older schema left: views, triggers, tables of other names) and created again from
 *   schema-derived.ts, empty. With no `files` row, the next refresh reads every transcript again: from disk, or
 *   from the archive for files that are gone.
 * Both under the write lock (`BEGIN IMMEDIATE`), checked again once it is held: processes that open one index at
 * once apply each change once.
 */
import type Database from 'better-sqlite3';
import { TELEMETRY_TABLES } from '../telemetry/schema.js';
import { ARCHIVE_STEPS, ARCHIVE_TABLES, fillArchivedAgents } from './schema-archive.js';
import { DERIVED_SCHEMA } from './schema-derived.js';
import { DERIVED_VERSION, derivedVersionOf, SCHEMA_VERSION, schemaIsCurrent } from './schema-version.js';

export { ARCHIVE_TABLES, DERIVED_VERSION, SCHEMA_VERSION };

export class NewerSchemaError extends Error {
  constructor(readonly version: number) {
    super(`index schema version ${version} is newer than this program's (${SCHEMA_VERSION})`);
  }
}

/**
 * The index's derived tables were built by a newer AgentDash (a higher `derived_version`). Rebuilding them here would
 * make that one rebuild them again when it next opens the index (a whole cold index each time, for each of two
 * installs used in turn): refused unless asked for (`MigrateOptions.rebuild`).
 */
export class NewerDerivedError extends Error {
  constructor(readonly version: number) {
    super(`the index's derived data ${version} is newer than this program's (${DERIVED_VERSION})`);
  }
}

export interface MigrateOptions {
  /**
   * Drop the derived tables and create them again, empty, whatever version built them (`agentdash index --rebuild`):
   * the way to use an index a newer AgentDash built (refused otherwise), or to read everything again.
   */
  readonly rebuild?: boolean;
}

interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

/**
 * Drop every table, view and trigger but the archive's and telemetry's (and their indexes), in an order SQLite
 * accepts.
 */
function dropDerived(db: Database.Database): void {
  const kept = new Set<string>([...ARCHIVE_TABLES, ...TELEMETRY_TABLES]);
  const objects = (
    db
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
      .all() as SchemaObject[]
  ).filter((o) => !kept.has(o.tbl_name));
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  for (const o of objects.filter((o) => o.type === 'view')) db.exec(`DROP VIEW IF EXISTS ${quoted(o.name)}`);
  for (const o of objects.filter((o) => o.type === 'trigger')) db.exec(`DROP TRIGGER IF EXISTS ${quoted(o.name)}`);
  const tables = objects.filter((o) => o.type === 'table');
  // Virtual tables first (their shadow tables go with them), `files` last (the other tables reference it).
  const isVirtual = (o: SchemaObject) => /^CREATE VIRTUAL TABLE/i.test(o.sql ?? '');
  const order = (o: SchemaObject) => (isVirtual(o) ? 0 : o.name === 'files' ? 2 : 1);
  for (const o of tables.sort((a, b) => order(a) - order(b))) db.exec(`DROP TABLE IF EXISTS ${quoted(o.name)}`);
}

/** Drop the derived tables and create them again, empty (inside the caller's transaction). */
function rebuildDerived(db: Database.Database): void {
  dropDerived(db);
  db.exec(DERIVED_SCHEMA);
  db.prepare('INSERT INTO derived_version (version) VALUES (?)').run(DERIVED_VERSION);
}

/** Drop everything derived from transcripts, keeping the archive: the next refresh reads every file again. */
export function resetDerivedData(db: Database.Database): void {
  db.transaction(() => rebuildDerived(db))();
}

/** Bring the database to this program's archive steps and derived tables (see the top of this file). */
export function migrate(db: Database.Database, options: MigrateOptions = {}): void {
  const refuseNewer = () => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) throw new NewerSchemaError(current);
    const derived = derivedVersionOf(db);
    if (derived > DERIVED_VERSION && options.rebuild !== true) throw new NewerDerivedError(derived);
    return current;
  };
  refuseNewer();
  if (schemaIsCurrent(db) && options.rebuild !== true) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Under the write lock: another process may have done it meanwhile, or be newer.
    const version = refuseNewer();
    for (const step of ARCHIVE_STEPS) if (step.version > version) db.exec(step.sql);
    fillArchivedAgents(db, version);
    if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    if (derivedVersionOf(db) !== DERIVED_VERSION || options.rebuild === true) rebuildDerived(db);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
