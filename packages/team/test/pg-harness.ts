/**
 * A real PostgreSQL for the team tests (packages/team/src/pg/local-postgres.ts: a fresh cluster in a temporary
 * folder, as an unprivileged user under root). Where the binaries are missing the team suites say so in their
 * titles (`pgSuite`); in CI `.ci/run` installs them.
 */
import { createHash, randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { describe, inject } from 'vitest';
import { openTeamDb } from '../src/pg/db.js';
import { type LocalPostgres, postgresBin, startLocalPostgres } from '../src/pg/local-postgres.js';
import { type Migration, migrate, migrations } from '../src/pg/migrations.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL (test/postgres.ts), its `postgres` database; absent where none was started. */
    postgresUrl?: string;
  }
}

export { postgresBin };
export type TestPostgres = LocalPostgres;

/**
 * The name of the database the migrations `list` were run on: a short hash of their versions, names and SQL, so a
 * PostgreSQL kept from an earlier run (watch mode) never hands out a template built by other migrations.
 */
export function migratedName(list: readonly Migration[] = migrations): string {
  return `agentdash_migrated_${createHash('sha256').update(JSON.stringify(list)).digest('hex').slice(0, 12)}`;
}

/** The run's database with the team schema migrated, copied by `startPostgres({ migrated: true })`. */
const MIGRATED = migratedName();

/** PostgreSQL's `object_in_use`: a database copied or renamed while a connection to it is still closing. */
const inUse = (error: unknown) => (error as { code?: string }).code === '55006';

/** Runs `step`, again while the database it copies or renames is still in use (a closed pool's backends exiting). */
async function whenFree(step: () => Promise<unknown>): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await step();
      return;
    } catch (error) {
      if (!inUse(error) || tries >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Makes the run's migrated database once (the first file to ask; the others wait on an advisory lock): migrated
 * under another name, renamed once its pool is closed, so a file never copies one half made.
 */
async function ensureMigrated(admin: postgres.Sql, urlOf: (database: string) => string): Promise<void> {
  await admin`select pg_advisory_lock(hashtextextended('agentdash-test-migrated', 0))`;
  try {
    const [made] = await admin`select 1 from pg_database where datname = ${MIGRATED}`;
    if (made) return;
    const building = `${MIGRATED}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin.unsafe(`create database ${building}`);
    const db = await openTeamDb({ url: urlOf(building), max: 1 });
    try {
      await migrate(db.sql, db.schema);
    } finally {
      await db.close();
    }
    await whenFree(() => admin.unsafe(`alter database ${building} rename to ${MIGRATED}`));
  } finally {
    await admin`select pg_advisory_unlock(hashtextextended('agentdash-test-migrated', 0))`;
  }
}

/**
 * A PostgreSQL database of this test file's own: a new database on the run's server (the global setup
 * test/postgres.ts), dropped by `stop()`; outside such a run, a server of its own as before. `url` is that database.
 * With `migrated`, the database is a copy of one the team schema's migrations were run on once for the run (a copy
 * costs less than migrating: each team fixture still runs `migrate`, which finds it done).
 */
export async function startPostgres(options: { readonly migrated?: boolean } = {}): Promise<TestPostgres> {
  const server = inject('postgresUrl');
  if (!server) return await startLocalPostgres();
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const urlOf = (database: string) => server.replace(/\/[^/]*$/, `/${database}`);
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    if (options.migrated) {
      await ensureMigrated(admin, urlOf);
      await whenFree(() => admin.unsafe(`create database ${name} template ${MIGRATED}`));
    } else {
      await admin.unsafe(`create database ${name}`);
    }
  } finally {
    await admin.end();
  }
  return {
    url: urlOf(name),
    urlOf,
    async stop() {
      const sql = postgres(server, { max: 1, onnotice: () => {} });
      try {
        // force: a connection a failed test left open (or a killed child's) must not keep the database
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end();
      }
    },
  };
}

/**
 * `describe` over a real PostgreSQL, or a suite whose title says plainly that it was skipped.
 * @example pgSuite('migrations', () => { it(...) })
 */
export function pgSuite(title: string, body: () => void): void {
  // CI (.ci/run) installs PostgreSQL: there a missing one is a failure, not a skip.
  if (!postgresBin && process.env.AGENTDASH_REQUIRE_PG === '1') {
    throw new Error('AGENTDASH_REQUIRE_PG=1 but PostgreSQL (initdb, postgres) is not installed');
  }
  if (postgresBin) describe(title, body);
  else describe.skip(`${title} (skipped: PostgreSQL not installed)`, body);
}
