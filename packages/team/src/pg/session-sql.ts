/**
 * Pushed sessions as the dashboard's queries read them: the filters of every route as SQL over the summary columns,
 * and a row as the index's `SessionSummary` (plus who pushed it and at which tier), so the server's mapping applies.
 */
import { claudeModelQuery, projectFolderAgents } from '@agentdash/core/base';
import { reportedTime } from '@agentdash/core/time';
import { LIVE_WINDOW_MS, type SessionSummary, shownSession } from '@agentdash/index';
import { HttpError } from '@agentdash/server';
import type { MetadataSession, ShareTier, SummarySession } from '../contract.js';
import type { Sql, TxSql } from './db.js';

/** Every filter a dashboard route passes (a local index's, plus `person` and `device`). */
export interface TeamFilter {
  readonly agent?: string | undefined;
  readonly project?: string | undefined;
  readonly since?: string | number | undefined;
  readonly until?: string | number | undefined;
  readonly model?: string | undefined;
  readonly version?: string | undefined;
  readonly hasErrors?: boolean | undefined;
  readonly hideEmpty?: boolean | undefined;
  readonly ids?: readonly string[] | undefined;
  readonly sessionId?: string | undefined;
  /** The sessions that touched a file: not known here (no tool inputs are pushed), a 400 (`whereOf`). */
  readonly file?: string | undefined;
  readonly person?: string | undefined;
  /** A device name, or `PERSON/DEVICE`. */
  readonly device?: string | undefined;
}

export const toMs = (t: string | number | undefined): number | undefined => {
  if (t === undefined) return undefined;
  const ms = typeof t === 'number' ? t : Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
};

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The answer to a list filtered by a file (`file=`): a team server's sessions hold their calls' summaries, not their
 * inputs and results, so which files a session touched is not known here. A 400 of its own code, never the list
 * unfiltered; the dashboard offers the filter on a local server only (health's `mode`).
 */
export const fileFilterUnsupported = (): HttpError =>
  new HttpError(
    400,
    "a team server does not know which files a session's tools touched (no tool inputs are pushed): leave out file",
    'FILE_FILTER_UNSUPPORTED',
  );

/**
 * `s` (sessions, or the list's narrow copy) joined to `p` (people) and `d` (devices): the WHERE of a filter, as a
 * fragment. `hideEmpty` reads the list's `messages` column: only the list's queries (`listFromOf`) pass it.
 */
export function whereOf(sql: Sql | TxSql, f: TeamFilter) {
  if (f.file) throw fileFilterUnsupported();
  const parts = [sql`true`];
  if (f.agent) parts.push(sql`s.agent = ${f.agent}`);
  if (f.project) {
    // a path letter for letter, a name in either case, a folder's name where it is a project's: the laptop's filter
    // (index/src/read/scope.ts)
    const contains = /[\\/]/.test(f.project) ? sql`like` : sql`ilike`;
    // A hash names the sessions the pages name by it (`coalesce(path, folder, '#' || hash)`): those sent without a
    // path or folder (the summary tier). A session of the same project sent at a higher tier (another device's) is
    // named by its path: matched by the hash too, it would put it in the hash's totals and tell the path it stands for.
    parts.push(sql`(s.project_path ${contains} ${like(f.project)}
      or (s.agent = any(${projectFolderAgents}::text[]) and s.project_dir ${contains} ${like(f.project)})
      or (s.project_path is null and s.project_dir is null
        and (s.project_hash = ${f.project} or '#' || left(s.project_hash, 8) = ${f.project})))`);
  }
  const since = toMs(f.since);
  if (since !== undefined) parts.push(sql`coalesce(s.ended_ms, s.started_ms) >= ${since}`);
  const until = toMs(f.until);
  if (until !== undefined) parts.push(sql`s.started_ms <= ${until}`);
  if (f.model)
    parts.push(sql`exists (select 1 from unnest(s.models) m where strpos(lower(m), ${claudeModelQuery(f.model)}) > 0)`);
  if (f.version) parts.push(sql`${f.version} = any(s.versions)`);
  // not expected ones alone: the laptop's filter (index/src/read/scope.ts); `hasErrors` reaches the list's queries
  // only, whose `s` has `expected_errors` (see `whereOf`'s comment on `hideEmpty`)
  if (f.hasErrors === true) parts.push(sql`(s.errors > coalesce(s.expected_errors, 0) or s.api_errors > 0)`);
  if (f.hasErrors === false) parts.push(sql`s.errors <= coalesce(s.expected_errors, 0) and s.api_errors = 0`);
  if (f.hideEmpty === true) parts.push(shownSql(sql));
  if (f.ids !== undefined) parts.push(sql`s.uid = any(${[...f.ids]}::text[])`);
  if (f.sessionId !== undefined) parts.push(sql`s.uid = ${f.sessionId}`);
  if (f.person) parts.push(sql`p.name = ${f.person}`);
  if (f.device) {
    const slash = f.device.indexOf('/');
    if (slash === -1) parts.push(sql`d.name = ${f.device}`);
    else parts.push(sql`p.name = ${f.device.slice(0, slash)} and d.name = ${f.device.slice(slash + 1)}`);
  }
  return parts.reduce((a, b) => sql`${a} and ${b}`);
}

/**
 * Whether the sessions list shows a session (`hideEmpty`: not an empty or warm-up one), over the list's columns (`s`
 * of `LIST_FROM`): the index's rule (`shownSession`), one text for SQLite and PostgreSQL, with whether the session has
 * a title on its laptop (`titled`, migration 18: a summary-tier session's title is not sent).
 */
export function shownSql(sql: Sql | TxSql) {
  return sql`${sql.unsafe(shownSession('NOT s.titled'))}`;
}

/** The FROM of the session queries. */
export const FROM = 'sessions s join people p on p.id = s.person_id left join devices d on d.id = s.device_id';

/**
 * The FROM of the sessions list's totals, facets and pages: `s` is `session_list`, the sessions' columns the list
 * filters, sorts and counts by (with `messages`, `expected_errors`, `is_live` from the summary), without the summary
 * itself, so a scan over every session reads a fraction of the rows; a page's summaries are read by key after.
 */
export const LIST_FROM = FROM.replace('sessions s', 'session_list s');

/** `LIST_FROM`, without the people and devices (every session has its person) unless the filter names them. */
export const listFromOf = (f: TeamFilter): string => (f.person || f.device ? LIST_FROM : 'session_list s');

export interface SessionDbRow {
  readonly uid: string;
  readonly tier: ShareTier;
  readonly person: string;
  readonly device: string | null;
  readonly body: Record<string, unknown>;
}

/** The columns a `SessionDbRow` needs. */
export const ROW_COLUMNS = 's.uid, s.tier, p.name as person, d.name as device, s.body';

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** A session's project folder; a summary-tier session names none: its salted hash stands in, stable per person. */
export const projectDirOf = (dir: string | null | undefined, hash: string): string => dir ?? `#${hash.slice(0, 8)}`;

/** A team server's session summary: the index's shape (ids are uids), with who pushed it at which tier. */
export type TeamSessionSummary = SessionSummary & {
  readonly person: string;
  readonly device: string | null;
  readonly tier: ShareTier;
  readonly projectHash: string;
};

type Body = Omit<SummarySession, 'calls' | 'responses' | 'tier'> &
  Partial<Pick<MetadataSession, 'title' | 'titleSource' | 'projectPath' | 'projectDir' | 'gitBranch'>>;

/** A pushed session's failed requests and retried attempts, from its header's counts when the laptop sent them. */
function failedRequestsOf(counts: Readonly<Record<string, number>> | undefined) {
  const { failedRequests: apiErrors, retriedRequests: apiRetries } = counts ?? {};
  return typeof apiErrors === 'number' && typeof apiRetries === 'number' ? { apiErrors, apiRetries } : {};
}

function warmupsOf(counts: Readonly<Record<string, number>> | undefined) {
  const warmups = counts?.warmups;
  return typeof warmups === 'number' && warmups > 0 ? { warmups } : {};
}

/**
 * A pushed session's row as the index's summary; a tier's missing fields are absent (hidden), never invented. Live
 * as the index tells it at `now`: pushed live, and its last record within the window (the list's totals count so).
 */
export function summaryOf(row: SessionDbRow, now: number): TeamSessionSummary {
  const b = row.body as unknown as Body;
  const hash = b.projectHash;
  return {
    agent: b.agent as SessionSummary['agent'],
    id: row.uid,
    ref: row.uid,
    key: row.uid,
    projectPath: opt(b.projectPath),
    projectDir: projectDirOf(b.projectDir, hash),
    title: opt(b.title),
    titleSource: opt(b.titleSource),
    startedAt: opt(b.startedAt),
    endedAt: opt(b.endedAt),
    durationMs: opt(b.durationMs),
    messages: b.messages,
    prompts: b.prompts,
    toolCalls: b.toolCalls,
    errors: b.errors,
    expectedErrors: b.expectedErrors,
    // the laptop's header counts them (none from an older one: unknown, absent)
    ...failedRequestsOf(b.header?.counts),
    // its subagents' cache warm-ups, as the local list gives them: only when there are some
    ...warmupsOf(b.header?.counts),
    versions: b.versions,
    models: b.models,
    gitBranch: opt(b.gitBranch),
    files: [],
    subagents: b.subagents,
    isLive: b.isLive && typeof b.endedAt === 'string' && now - Date.parse(b.endedAt) < LIVE_WINDOW_MS,
    archived: b.archived,
    issues: b.issues,
    secrets: b.secrets,
    usage: b.usage,
    usageByModel: b.usageByModel,
    subagentUsage: b.subagentUsage,
    costUsd: b.costUsd,
    subagentCostUsd: b.subagentCostUsd,
    unpricedModels: b.unpricedModels,
    ...(b.inputUnrecordedModels === undefined ? {} : { inputUnrecordedModels: b.inputUnrecordedModels }),
    ...(b.outputUnrecordedModels === undefined ? {} : { outputUnrecordedModels: b.outputUnrecordedModels }),
    // unknown (null) where an older laptop (payload 6 and before) sent 0 for an unknown wall time
    time: reportedTime(b.time),
    person: row.person,
    device: row.device,
    tier: row.tier,
    projectHash: hash,
  };
}

/**
 * Migration 9: the sessions list's columns, without the body, in `session_list`, kept by the sessions' own writes
 * (`LIST_FROM` reads it).
 */
export const SESSION_LIST_MIGRATION = `
      -- the list's totals, facets and pages scan every session the filter selects: over this narrow copy, not the
      -- sessions' rows with their summaries; a trigger writes it in the transaction that writes the session, so a
      -- push, re-push, forget or erase (and a person's cascade) leaves it equal to the sessions, row for row
      create table session_list (
        person_id bigint not null,
        uid text not null,
        device_id bigint,
        agent text not null,
        project_hash text not null,
        project_dir text,
        project_path text,
        title text,
        started_ms bigint,
        ended_ms bigint,
        models text[] not null,
        versions text[] not null,
        tool_calls integer not null,
        errors integer not null,
        cost_usd double precision,
        messages integer,
        expected_errors integer,
        is_live boolean,
        primary key (person_id, uid)
      );
      -- search_path from the migration's: the schema's own table, whatever path the writer has
      create function session_list_sync() returns trigger language plpgsql set search_path from current as $$
      begin
        if tg_op <> 'INSERT' then
          delete from session_list where person_id = old.person_id and uid = old.uid;
        end if;
        if tg_op <> 'DELETE' then
          insert into session_list values (new.person_id, new.uid, new.device_id, new.agent, new.project_hash,
            new.project_dir, new.project_path, new.title, new.started_ms, new.ended_ms, new.models, new.versions,
            new.tool_calls, new.errors, new.cost_usd, (new.body->>'messages')::int,
            (new.body->>'expectedErrors')::int, (new.body->>'isLive')::boolean);
        end if;
        return null;
      end $$;
      create trigger sessions_list after insert or update or delete on sessions
        for each row execute function session_list_sync();
      insert into session_list
        select person_id, uid, device_id, agent, project_hash, project_dir, project_path, title, started_ms, ended_ms,
          models, versions, tool_calls, errors, cost_usd, (body->>'messages')::int, (body->>'expectedErrors')::int,
          (body->>'isLive')::boolean
        from sessions;`;
