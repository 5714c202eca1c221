/** Opening the team database as the CLI and the team server do: from `--pg`/`AGENTDASH_PG_URL`, migrated. */
import { TeamBadInputError } from '../errors.js';
import { openTeamDb, type Sql, type TeamDb } from './db.js';
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

/** The schema's version now (0 when it has none). */
export async function schemaVersion(sql: Sql, schema: string): Promise<number> {
  const [row] = await sql<{ exists: boolean }[]>`
    select exists (select 1 from information_schema.tables where table_schema = ${schema} and table_name = 'migrations')`;
  if (!row?.exists) return 0;
  const [version] = await sql.unsafe<{ v: number | null }[]>(
    `select max(version)::int as v from "${schema}".migrations`,
  );
  return version?.v ?? 0;
}
