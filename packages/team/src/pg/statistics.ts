/**
 * The planner's statistics, kept up with the pushes. PostgreSQL's autovacuum analyzes a table once a tenth of it has
 * changed, but only on one of its rounds (a minute apart by default, later on a busy server). Until then the searches
 * after a team's first push, or after a person's first push of a large archive, are planned as over the tables as
 * they were: nearly empty, so nested loops over every posting. This server therefore analyzes the database itself
 * once the sessions stored since its last analysis reach a tenth of those there were then (and at least a few), in
 * the background, one analysis at a time: a push never waits for it.
 */
import type { Sql } from './db.js';

export interface StatisticsKeeper {
  /** `count` sessions were stored (changed or new). */
  stored(count: number): void;
  /** Settles once no analysis runs or is due (tests). */
  settled(): Promise<void>;
  /** No analysis starts from now on; settles once the one under way, if any, has ended (before the pool closes). */
  close(): Promise<void>;
}

export interface StatisticsOptions {
  /** The fewest stored sessions that call for an analysis (default 10). */
  readonly minSessions?: number;
  /** The share of the sessions there were at the last analysis that calls for another (default 0.1). */
  readonly fraction?: number;
  /** Where a failed analysis is told (default: the console). */
  readonly onError?: (error: unknown) => void;
}

export function keepStatistics(sql: Sql, options: StatisticsOptions = {}): StatisticsKeeper {
  const minSessions = options.minSessions ?? 10;
  const fraction = options.fraction ?? 0.1;
  const onError =
    options.onError ??
    ((error: unknown) => console.error('agentdash team server: analyzing the database failed:', error));
  /** Sessions stored since the last analysis began. */
  let pending = 0;
  /** The sessions the planner counted at the last analysis (read from the catalogue before the first). */
  let counted: number | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const sessionsCounted = async (): Promise<number> => {
    // -1 for a table never analyzed (PostgreSQL 14 on), 0 on older ones
    const [row] = await sql<{ n: number }[]>`select greatest(reltuples, 0)::float8 as n from pg_class
      where oid = 'sessions'::regclass`;
    return row?.n ?? 0;
  };

  const due = async (): Promise<boolean> => {
    counted ??= await sessionsCounted();
    return pending >= Math.max(minSessions, fraction * counted);
  };

  /** The tables of the team's schema (the database may hold others', which are not this server's to analyze). */
  const tables = async (): Promise<string[]> =>
    (
      await sql<{ name: string }[]>`select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
        where schemaname = current_schema() order by relname`
    ).map((r) => r.name);

  const run = async (): Promise<void> => {
    let taken = 0;
    try {
      while (!closed && (await due())) {
        taken = pending;
        pending = 0;
        const names = await tables();
        if (names.length > 0) await sql.unsafe(`analyze ${names.join(', ')}`);
        taken = 0;
        counted = await sessionsCounted();
      }
    } catch (error) {
      // the sessions it was for are due again with the next push
      pending += taken;
      if (!closed) onError(error);
    }
  };

  /** Whether sessions were stored while an analysis ran (its last check may have come before them). */
  let storedMeanwhile = false;
  const start = (): void => {
    storedMeanwhile = false;
    running = run().finally(() => {
      running = undefined;
      if (storedMeanwhile && !closed) start();
    });
  };

  return {
    stored(count) {
      if (count <= 0 || closed) return;
      pending += count;
      if (running === undefined) start();
      else storedMeanwhile = true;
    },
    async settled() {
      while (running !== undefined) await running;
    },
    async close() {
      closed = true;
      while (running !== undefined) await running;
    },
  };
}
