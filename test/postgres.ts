import type { TestProject } from 'vitest/node';
import { type LocalPostgres, postgresBin, startLocalPostgres } from '../packages/team/src/pg/local-postgres.ts';
import type {} from '../packages/team/test/pg-harness.ts';

/**
 * Vitest global setup of the projects with PostgreSQL suites (team, cli, e2e): one throwaway PostgreSQL for the whole
 * run, started by the first of them to run and stopped after the last, instead of one per test file (initdb and a
 * start cost seconds each). Each file gets a database of its own on it (`startPostgres` in
 * packages/team/test/pg-harness.ts), so files stay independent. Where PostgreSQL is missing nothing is started and the
 * suites say they are skipped.
 */
const run = globalThis as { agentdashTestPostgres?: { server: Promise<LocalPostgres>; users: number } };

export default async function postgresForTheRun(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!postgresBin) return undefined;
  run.agentdashTestPostgres ??= { server: startLocalPostgres(), users: 0 };
  const shared = run.agentdashTestPostgres;
  shared.users++;
  project.provide('postgresUrl', (await shared.server).url);
  return async () => {
    if (--shared.users > 0) return;
    run.agentdashTestPostgres = undefined;
    await (await shared.server).stop();
  };
}
