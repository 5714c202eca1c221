/** Opening the team database as the CLI and the team server do: from `--pg`/`AGENTDASH_PG_URL`, migrated. */
import { TeamBadInputError } from '../errors.js';
import { openTeamDb, type TeamDb } from './db.js';
import { migrate } from './migrations.js';

export interface TeamDbArgs {
  readonly pg?: string | undefined;
  readonly pgSchema?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The database `--pg URL` (else `$AGENTDASH_PG_URL`) names, with its schema created or upgraded. */
export async function openMigratedTeamDb(args: TeamDbArgs, max?: number): Promise<TeamDb> {
  const url = args.pg ?? args.env.AGENTDASH_PG_URL;
  if (url === undefined || url === '') {
    throw new TeamBadInputError('give the team database: --pg postgres://… (or set AGENTDASH_PG_URL)');
  }
  const db = await openTeamDb({ url, schema: args.pgSchema ?? args.env.AGENTDASH_PG_SCHEMA, max });
  try {
    await migrate(db.sql, db.schema);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
