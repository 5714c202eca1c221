/**
 * The dashboard's index queries over PostgreSQL: the same `IndexQueries` the local server runs over SQLite, answered
 * from the pushed sessions, so `createApp` serves a team's sessions with the local routes and mappings unchanged.
 */
import { type AgentId, agentIds } from '@agentdash/core/base';
import { agentVersionFacets, valuesByAgent } from '@agentdash/core/present';
import { LIVE_WINDOW_MS, type SessionHeaderParts, type SessionSort, unknownLastSql } from '@agentdash/index';
import { hasMainFile, type IndexQueries } from '@agentdash/server';
import type { CopiedWire, SubagentWire } from '../contract.js';
import { copiedTotals } from './call-copies.js';
import type { Sql } from './db.js';
import { type TeamSearchFilter, teamSearch, teamSearchSnippets } from './search.js';
import {
  FROM,
  listFromOf,
  ROW_COLUMNS,
  type SessionDbRow,
  summaryOf,
  type TeamFilter,
  whereOf,
} from './session-sql.js';
import { toolCondition } from './tool-filter.js';
import { teamStatsResponse, teamUsageResponse } from './usage.js';

/** A list's orders, over the list's columns (`listFromOf`). */
const ORDER: Readonly<Record<SessionSort, string>> = {
  startedAt: 'coalesce(s.started_ms, 0)',
  endedAt: 'coalesce(s.ended_ms, s.started_ms, 0)',
  title: "lower(coalesce(s.title, ''))",
  project: 'coalesce(s.project_path, s.project_dir, s.project_hash)',
  durationMs: 'coalesce(nullif(s.wall_ms, 0), -1)',
  messages: 's.messages',
  toolCalls: 's.tool_calls',
  errors: 's.errors - s.expected_errors + s.api_errors',
  // a lower bound by its known part, as the index's list (session-page.ts)
  costUsd: 'coalesce(s.cost_usd, -1)',
};

type Q = IndexQueries;

/** The queries over the team schema `sql` points at (its search path). */
export function teamQueries(
  sql: Sql,
  now: () => number = Date.now,
  options: { readonly searchStarts?: boolean | undefined } = {},
): IndexQueries {
  const searching = { starts: options.searchStarts };
  const rows = async (f: TeamFilter, tail = sql``) =>
    (
      await sql<
        SessionDbRow[]
      >`select ${sql.unsafe(ROW_COLUMNS)} from ${sql.unsafe(FROM)} where ${whereOf(sql, f)} ${tail}`
    ).map((row) => summaryOf(row, now()));

  /** A list's rows in `order`: keys, filtered, sorted and cut over the list's columns, then their summaries. */
  const listed = async (f: TeamFilter, sort: SessionSort, descending: boolean, limit?: number, offset = 0) => {
    const dir = descending ? sql`desc` : sql`asc`;
    // unknown values last in either direction, as the index's list (unknownLastSql)
    const unknown = unknownLastSql(sort, ORDER[sort]) ?? 'false';
    const found = await sql<SessionDbRow[]>`
      select k.uid, b.tier, p.name as person, d.name as device, b.body
      from (select s.person_id, s.uid, ${sql.unsafe(ORDER[sort])} as o, ${sql.unsafe(unknown)} as u
        from ${sql.unsafe(listFromOf(f))} where ${whereOf(sql, f)}
        order by u, o ${dir}, s.uid
        ${limit === undefined ? sql`` : sql`limit ${limit}`} offset ${offset}) k
      join sessions b on b.person_id = k.person_id and b.uid = k.uid
      join people p on p.id = b.person_id left join devices d on d.id = b.device_id
      order by k.u, k.o ${dir}, k.uid`;
    return found.map((row) => summaryOf(row, now()));
  };

  const totals: Q['sessionTotals'] = async (filter = {}) => {
    const [t] = await sql<
      { total: number; tool_calls: number; errors: number; expected: number; api: number; live: number }[]
    >`
      select count(*)::int as total, coalesce(sum(s.tool_calls), 0)::int as tool_calls,
        coalesce(sum(s.errors), 0)::int as errors, coalesce(sum(s.expected_errors), 0)::int as expected,
        coalesce(sum(s.api_errors), 0)::int as api,
        count(*) filter (where s.is_live and s.ended_ms > ${now() - LIVE_WINDOW_MS})::int as live
      from ${sql.unsafe(listFromOf(filter as TeamFilter))} where ${whereOf(sql, filter as TeamFilter)}`;
    // a call two sessions hold counts once, as in `stats` (call-copies.ts)
    const copied = await copiedTotals(sql, filter as TeamFilter);
    return {
      total: t?.total ?? 0,
      totals: {
        toolCalls: (t?.tool_calls ?? 0) - copied.toolCalls,
        errors: (t?.errors ?? 0) - copied.errors,
        expectedErrors: (t?.expected ?? 0) - copied.expectedErrors,
        apiErrors: t?.api ?? 0,
        live: t?.live ?? 0,
      },
    };
  };

  const getSession: Q['getSession'] = async (ref) => {
    if (!/^[0-9a-f]{4,32}$/.test(ref)) return undefined;
    const found = await rows({}, sql`and s.uid like ${`${ref}%`} order by s.uid limit 2`);
    return found.length === 1 || found[0]?.id === ref ? found[0] : undefined;
  };

  return {
    getSession,
    listSessions: async (filter = {}) =>
      await listed(filter as TeamFilter, 'startedAt', true, filter.limit || undefined),
    pageSessions: async (filter, query = {}) => {
      const known = query.known ?? (await totals(filter));
      const offset = query.offset ?? 0;
      const sessions = await listed(
        filter as TeamFilter,
        query.sort ?? 'startedAt',
        query.descending !== false,
        query.limit ?? 100,
        offset,
      );
      return { ...known, offset, sessions };
    },
    sessionTotals: totals,
    // one scan: the distinct (project, agent, models, versions) of the sessions, few, then each facet's values
    sessionFacets: async (filter = {}) => {
      type Pair = { agent: AgentId; version: string | null };
      type Value = { agent: AgentId; value: string | null };
      const [f] = await sql<
        {
          projects: string[] | null;
          models: string[] | null;
          versions: Pair[] | null;
          agent_models: Value[] | null;
          agent_projects: Value[] | null;
        }[]
      >`
        with x as materialized (
          select distinct coalesce(s.project_path, s.project_dir, '#' || left(s.project_hash, 8)) as project,
            s.agent, s.models, s.versions
          from ${sql.unsafe(listFromOf(filter as TeamFilter))} where ${whereOf(sql, filter as TeamFilter)})
        select (select array_agg(distinct project) from x) as projects,
          (select array_agg(distinct m order by m) from x, unnest(x.models) m) as models,
          (select jsonb_agg(distinct jsonb_build_object('agent', x.agent, 'version', v))
            from x left join lateral unnest(x.versions) v on true) as versions,
          (select jsonb_agg(distinct jsonb_build_object('agent', x.agent, 'value', m))
            from x, unnest(x.models) m) as agent_models,
          (select jsonb_agg(distinct jsonb_build_object('agent', x.agent, 'value', x.project)) from x) as agent_projects`;
      // each agent's own models and projects, as the laptop's facets (session-page.ts)
      const models = valuesByAgent(f?.agent_models ?? []);
      const projects = valuesByAgent(f?.agent_projects ?? []);
      const facets = agentVersionFacets(f?.versions ?? [], agentIds);
      return {
        projects: (f?.projects ?? []).sort(),
        models: f?.models ?? [],
        versions: facets.versions,
        agents: facets.agents.map((a) => ({
          ...a,
          models: models.get(a.agent) ?? [],
          projects: projects.get(a.agent) ?? [],
        })),
      };
    },
    // As the laptop's index told them when it pushed (payload 2), each source named by its uid and, where its tier
    // gives one, its title; a session pushed by an older laptop has none.
    sessionCopies: async (ref) => {
      const [row] = await sql<{ copied: CopiedWire[] | null; person: number }[]>`
        select s.body->'header'->'copiedFrom' as copied, s.person_id as person from sessions s where s.uid = ${ref}`;
      const copied = row?.copied ?? [];
      if (row === undefined || copied.length === 0) return [];
      // the pushing person's own sessions only: a uid another person's session has names nothing here
      const titles = await sql<{ uid: string; title: string | null }[]>`
        select s.uid, s.title from sessions s
        where s.person_id = ${row.person} and s.uid = any(${copied.map((c) => c.uid)}::text[])`;
      const titleOf = new Map(titles.map((t) => [t.uid, t.title]));
      return copied.map(({ uid, ...counts }) => ({ ref: uid, title: titleOf.get(uid) ?? null, ...counts }));
    },
    sessionHeader: async (ref) => {
      const [row] = await sql<{ header: unknown; issues: number; roles: string[] | null }[]>`
        select s.body->'header' as header, (s.body->>'issues')::int as issues,
          (select array_agg(f.role) from files f where f.person_id = s.person_id and f.uid = s.uid) as roles
        from sessions s where s.uid = ${ref}`;
      if (!row) return undefined;
      const h = row.header as Omit<SessionHeaderParts, 'subagents' | 'shells' | 'issues'> &
        Partial<Pick<SessionHeaderParts, 'shells'>> & {
          subagents?: readonly (SubagentWire & { prompt?: string | null })[];
        };
      return {
        totalEvents: h.totalEvents,
        counts: h.counts,
        toolCounts: h.toolCounts,
        // the metadata tier tells a subagent by its call's summary, where the full tier has its prompt
        subagents: (h.subagents ?? []).map(({ description, prompt, ...sub }) => ({
          ...sub,
          prompt: prompt ?? description ?? null,
        })),
        shells: h.shells ?? {},
        issues: row.issues,
        // the session's files are not listed with it here: its pushed files tell (none at the metadata tier)
        mainFile: hasMainFile((row.roles ?? []).map((role) => ({ role }))),
      };
    },
    // a list's hits found by positions alone come without a snippet, and sessions they cannot decide come undecided:
    // the rows a page shows are cut after (`searchSnippets`), which drops an undecided one without a hit
    search: async (query, filter = {}) => await teamSearch(sql, query, filter as TeamSearchFilter, 'page', searching),
    searchSnippets: async (query, ids, filter) =>
      await teamSearchSnippets(sql, query, ids, filter as TeamSearchFilter, searching),
    calls: async (filter = {}) => {
      const f = filter as TeamFilter & {
        tool?: string;
        status?: string;
        category?: string;
        severity?: string;
        oldestFirst?: boolean;
        limit?: number;
      };
      const parts = [whereOf(sql, { ...f, since: undefined, until: undefined })];
      if (f.tool) parts.push(toolCondition(sql, f.tool));
      if (f.status) parts.push(sql`c.status = ${f.status}`);
      if (f.category) parts.push(sql`c.category = ${f.category}`);
      if (f.severity) parts.push(sql`c.severity = ${f.severity}`);
      if (f.since !== undefined) parts.push(sql`c.ts_ms >= ${Date.parse(String(f.since))}`);
      if (f.until !== undefined) parts.push(sql`c.ts_ms <= ${Date.parse(String(f.until))}`);
      const where = parts.reduce((a, b) => sql`${a} and ${b}`);
      const found = await sql`
        select s.uid, c.call_id, c.tool, c.canonical, c.ts, c.status, c.category, c.severity, c.error_message,
          c.exit_code, c.duration_ms, c.summary, c.agent_id, s.project_path
        from ${sql.unsafe(FROM)} join calls c on c.person_id = s.person_id and c.uid = s.uid
        where ${where} order by ${f.oldestFirst ? sql`c.ts_ms asc nulls first, c.call_id` : sql`c.ts_ms desc nulls last`}
        limit ${f.limit ?? 200}`;
      return found.map((r) => ({
        sessionId: r.uid,
        sessionRef: r.uid,
        callId: r.call_id,
        tool: r.tool,
        canonicalTool: r.canonical,
        timestamp: r.ts ?? undefined,
        status: r.status,
        category: r.category ?? undefined,
        severity: r.severity ?? undefined,
        errorMessage: r.error_message ?? undefined,
        exitCode: r.exit_code ?? undefined,
        durationMs: r.duration_ms ?? undefined,
        // a summary-tier call says what it was, never what it did
        summary: r.summary ?? r.tool,
        agentId: r.agent_id ?? undefined,
        projectPath: r.project_path ?? undefined,
        file: '',
        line: 0,
      }));
    },
    // parse issues stay on the laptop: a pushed session carries their count only
    issues: async () => [],
    statsResponse: async (filter) => await teamStatsResponse(sql, filter),
    usageResponse: async (filter, at, timeZone) => await teamUsageResponse(sql, filter as TeamFilter, at, timeZone),
  };
}
