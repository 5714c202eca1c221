/**
 * A real PostgreSQL for the team tests (packages/team/src/pg/local-postgres.ts: a fresh cluster in a temporary
 * folder, as an unprivileged user under root). Where the binaries are missing the team suites say so in their
 * titles (`pgSuite`); in CI `.ci/run` installs them.
 */
import { describe } from 'vitest';
import { type LocalPostgres, postgresBin, startLocalPostgres } from '../src/pg/local-postgres.js';

export { postgresBin };
export type TestPostgres = LocalPostgres;
export const startPostgres = startLocalPostgres;

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
