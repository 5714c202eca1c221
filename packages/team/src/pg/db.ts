/** The team server's PostgreSQL connection: one pool, its own schema first on the search path. */
import postgres from 'postgres';
import { TeamBadInputError, TeamDbUnreachableError } from '../errors.js';

export type Sql = postgres.Sql;
export type TxSql = postgres.TransactionSql;

/**
 * Takes the transaction-level advisory locks of `keys`, in one order (no two transactions wait on each other): the
 * statement is sent at once, before any started after it on the transaction's connection.
 */
export function lockKeys(tx: TxSql, keys: readonly string[]): Promise<unknown> {
  if (keys.length === 0) return Promise.resolve();
  return tx`select pg_advisory_xact_lock(k) from (
    select distinct hashtextextended(key, 0) as k from unnest(${[...keys]}::text[]) as key order by 1) as locks`.execute();
}

/** PostgreSQL's code for a transaction it chose to abort to break a deadlock. */
export const DEADLOCK = '40P01';

/**
 * Runs `transaction` (the whole of it, idempotent), again when PostgreSQL aborted it to break a deadlock (a few times
 * at most): a push's sessions sharing chunks, a forget and a push of one person.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= 5) throw error;
    }
  }
}

export const DEFAULT_SCHEMA = 'agentdash';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface TeamDbOptions {
  /** `postgres://user:password@host:port/database` (or `AGENTDASH_PG_URL`). */
  readonly url: string;
  /** The schema holding AgentDash's tables (default `agentdash`): lower-case letters, digits and `_`. */
  readonly schema?: string | undefined;
  /** Pool size (default 10). */
  readonly max?: number | undefined;
}

export interface TeamDb {
  readonly sql: Sql;
  readonly schema: string;
  close(): Promise<void>;
}

/** The schema name, checked (it is written into SQL as an identifier). */
export function schemaName(schema: string | undefined): string {
  const name = schema ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(name)) {
    throw new TeamBadInputError(`--pg-schema must be lower-case letters, digits and _ (at most 63): ${name}`);
  }
  return name;
}

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an invalid URL)';
  }
}

const reasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  CONNECT_TIMEOUT: 'timed out',
  '28P01': 'password authentication failed',
  '28000': 'login refused',
  '3D000': 'no such database',
};

/**
 * What went wrong with the connection of a failed query, as a few words: what passes (a server down, restarting, out
 * of connections, the network), not a login refused or a database gone, which stay refused until someone acts.
 */
const lostReasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  CONNECT_TIMEOUT: 'timed out',
  CONNECTION_CLOSED: 'connection closed',
  CONNECTION_ENDED: 'connection ended',
  CONNECTION_DESTROYED: 'connection closed',
  ECONNRESET: 'connection reset',
  '57P01': 'shut down by its administrator',
  '57P02': 'crashed',
  '57P03': 'starting up or shutting down',
  '08000': 'connection lost',
  '08001': 'connection refused',
  '08003': 'connection lost',
  '08006': 'connection lost',
  '53300': 'too many connections',
};

/**
 * Why a query failed for want of PostgreSQL (down, restarting, unreachable, out of connections), or undefined when it
 * failed for another reason: the team server answers those 503 (try again), not 500.
 */
export function lostDatabaseReason(error: unknown): string | undefined {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  if (typeof code !== 'string') return undefined;
  // A system error of a socket names its call (`connect`, `read`): one a client dropped while its request was read
  // (Node's 'aborted', ECONNRESET too) names none, and is no database's.
  if (code.startsWith('E') && typeof syscall !== 'string') return undefined;
  return lostReasons[code];
}

/** A connection failure as one line (the error's own message when it is none of the known ones). */
export function unreachable(url: string, error: unknown): TeamDbUnreachableError {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const reason = reasons[code] ?? (error instanceof Error ? error.message.split('\n')[0] : String(error));
  return new TeamDbUnreachableError(`cannot connect to PostgreSQL at ${safeUrl(url)}: ${reason}`, { cause: error });
}

/** Opens the pool and checks that PostgreSQL answers (a `TEAM_DB_UNREACHABLE` error otherwise). */
export async function openTeamDb(options: TeamDbOptions): Promise<TeamDb> {
  const schema = schemaName(options.schema);
  if (!/^postgres(ql)?:\/\//.test(options.url)) {
    throw new TeamBadInputError(`--pg must be a postgres:// URL: ${safeUrl(options.url)}`);
  }
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    connect_timeout: 10,
    onnotice: () => {},
    // an absent optional field (a summary-tier call's summary) is SQL NULL
    transform: { undefined: null },
    // bigint counts (sums of tokens, epoch milliseconds) come back as numbers: they stay far below 2^53
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    connection: { search_path: `"${schema}"`, application_name: 'agentdash-team' },
  });
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 0 }).catch(() => {});
    throw unreachable(options.url, error);
  }
  return { sql, schema, close: () => sql.end({ timeout: 5 }) };
}
