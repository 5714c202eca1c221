/**
 * A real PostgreSQL for the team tests (packages/team/src/pg/local-postgres.ts: a fresh cluster in a temporary
 * folder, as an unprivileged user under root). Where the binaries are missing the team suites say so in their
 * titles (`pgSuite`); in CI `.ci/run` installs them.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { describe, inject } from 'vitest';
import { type LocalPostgres, postgresBin, startLocalPostgres } from '../src/pg/local-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL (test/postgres.ts), its `postgres` database; absent where none was started. */
    postgresUrl?: string;
  }
}

export { postgresBin };
export type TestPostgres = LocalPostgres;

/**
 * A PostgreSQL database of this test file's own: a new database on the run's server (the global setup
 * test/postgres.ts), dropped by `stop()`; outside such a run, a server of its own as before. `url` is that database.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const server = inject('postgresUrl');
  if (!server) return await startLocalPostgres();
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const urlOf = (database: string) => server.replace(/\/[^/]*$/, `/${database}`);
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
