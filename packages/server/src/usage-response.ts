import type { MeasuredTimeDto } from '@agentdash/api';
import {
  type AgentId,
  activeMs,
  agentIds,
  type BillingBlock,
  billingBlocks,
  blockAgents,
  cacheHitRatio,
  groupUsage,
  type ModelUsage,
  type PricedResponse,
  periodKeyer,
  totalsOf,
  type UsageGroup,
  usageTotalsOf,
} from '@agentdash/core';
import { addMeasured, type SessionSummary, type UsageFilter } from '@agentdash/index';
import type { AgentIndex } from './agent-index.js';
import type { TimeSumDto, UsageGroupDto, UsageResponse, UsageTotalsDto } from './api-types.js';

/**
 * The fields of a session the usage page reads: its top sessions' links and the time breakdown. `sessions`: how many
 * sessions of one project, started in one UTC quarter-hour, it stands for when they are summed (a team server's); 1
 * when absent.
 */
export type UsageSession = Pick<
  SessionSummary,
  'id' | 'ref' | 'title' | 'projectPath' | 'projectDir' | 'startedAt' | 'time'
> & { readonly sessions?: number };

/**
 * What the usage page reads: a local index, or a team server's rows loaded for one request (a response there may
 * stand for several, see core's `PricedResponse`).
 */
export type UsageSource = Pick<AgentIndex, 'usageResponses' | 'prices'> &
  Partial<Pick<AgentIndex, 'telemetry'>> & {
    getSession(id: string): UsageSession | undefined;
    listSessions(filter: Omit<UsageFilter, 'model'>): readonly UsageSession[];
    /**
     * The responses per session for the top sessions, when `usageResponses` sums them coarser than per session (a
     * team server's sums per project): the same responses, each carrying its session's key.
     */
    sessionUsage?(): readonly PricedResponse<{ readonly sessionKey: string }>[];
    /**
     * The responses per person, when `usageResponses` names no person (a team server's sums per project, whose rows
     * would otherwise be as many as the people sharing each project): the same responses, each carrying its person.
     */
    personUsage?(): readonly PricedResponse<{ readonly person?: string | undefined }>[];
  };

const TOP_SESSIONS = 20;
const RECENT_BLOCKS = 30;

function totals(u: UsageGroup | ModelUsage): UsageTotalsDto {
  return { ...usageTotalsOf(u), costUsd: u.costUsd };
}

/** The models of `u` whose cost is a lower bound (absent when none), of `only` those when given (a model's row). */
function gaps(u: UsageGroup, only?: string) {
  const of = (models: readonly string[] | undefined) =>
    only === undefined ? models : models?.includes(only) ? [only] : undefined;
  const input = of(u.inputUnrecordedModels);
  const output = of(u.outputUnrecordedModels);
  return {
    ...(input === undefined ? {} : { inputUnrecordedModels: input }),
    ...(output === undefined ? {} : { outputUnrecordedModels: output }),
  };
}

function group(u: UsageGroup): UsageGroupDto {
  return {
    ...totals(u),
    models: Object.fromEntries(Object.entries(u.models).map(([m, t]) => [m, totals(t)])),
    unpricedModels: u.unpricedModels,
    ...gaps(u),
  };
}

const byCost = (a: { costUsd: number | null; responses: number }, b: { costUsd: number | null; responses: number }) =>
  (b.costUsd ?? -1) - (a.costUsd ?? -1) || b.responses - a.responses;

function addTime(
  into: Map<string, TimeSumDto & { sessions: number }>,
  key: string,
  t: TimeSumDto,
  sessions: number,
): void {
  const prev = into.get(key) ?? { wallMs: 0, modelMs: 0, toolMs: 0, userMs: 0, idleMs: 0, sessions: 0 };
  into.set(key, {
    wallMs: prev.wallMs + t.wallMs,
    modelMs: prev.modelMs + t.modelMs,
    toolMs: prev.toolMs + t.toolMs,
    userMs: prev.userMs + t.userMs,
    idleMs: prev.idleMs + t.idleMs,
    sessions: prev.sessions + sessions,
  });
}

/**
 * The `TOP_SESSIONS` costliest sessions' usage, in `byCost` order (ties in first-seen order), without a usage group
 * per session: each session's cost and responses are added up first, and only the sessions within rounding of the
 * last one listed are grouped (their costs, summed per model as a group does, decide the order).
 */
export function topSessionGroups(
  responses: readonly PricedResponse<{ readonly sessionKey: string }>[],
): { id: string; u: UsageGroup }[] {
  const rough = new Map<string, { costUsd: number | null; responses: number }>();
  for (const r of responses) {
    const key = r.context.sessionKey;
    let s = rough.get(key);
    if (s === undefined) {
      s = { costUsd: null, responses: 0 };
      rough.set(key, s);
    }
    s.responses += r.responses ?? 1;
    if (r.costUsd !== undefined) s.costUsd = (s.costUsd ?? 0) + r.costUsd;
  }
  const ranked = [...rough.values()].sort(byCost);
  const last = ranked[Math.min(TOP_SESSIONS, ranked.length) - 1];
  if (last === undefined) return [];
  // a cost summed in another order differs in its last bits at most: candidates are those not clearly below `last`
  const floor = (last.costUsd ?? -1) - 1e-6 * Math.max(1, Math.abs(last.costUsd ?? 1));
  const candidates = new Set([...rough].flatMap(([key, s]) => ((s.costUsd ?? -1) >= floor ? [key] : [])));
  return [...groupUsage(responses, (r) => (candidates.has(r.context.sessionKey) ? r.context.sessionKey : undefined))]
    .map(([id, u]) => ({ id, u }))
    .sort((a, b) => byCost(a.u, b.u))
    .slice(0, TOP_SESSIONS);
}

/**
 * The page's 5-hour blocks: those of the agents whose usage limits they are (`blockAgents`), made of the responses the
 * page's filter selects, as a team server sums them (its rows come filtered: the laptop's page and the team's stay
 * equal; with several people in scope it makes none: `blocksByPerson`). `usage blocks` on the CLI makes them of the
 * account's every response instead (`accountBlocks`).
 */
function blocksOfReport(
  responses: readonly PricedResponse<{ readonly agent: AgentId }>[],
  now: number,
): BillingBlock[] {
  return billingBlocks(
    responses.filter((r) => blockAgents.includes(r.context.agent)),
    now,
  );
}

/**
 * The Usage page's data: each response once, priced, per day, model, project, session and 5-hour block. Days are
 * those of `timeZone` (an IANA name: the browser's) when given, else of the server's time zone.
 */
export function usageResponse(index: UsageSource, filter: UsageFilter, now: number, timeZone?: string): UsageResponse {
  const responses = index.usageResponses(filter);
  const all = totalsOf(responses);
  const dayOf = periodKeyer('day', timeZone);
  const days = [...groupUsage(responses, (r) => (r.timestampMs === undefined ? undefined : dayOf(r.timestampMs)))]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([date, u]) => ({ date, ...group(u) }));
  // Per agent, in the registry's order: each response carries its session's agent.
  const byAgent = groupUsage(responses, (r) => r.context.agent);
  const agents = agentIds.flatMap((agent) => {
    const mine = byAgent.get(agent);
    return mine === undefined ? [] : [{ agent, ...group(mine) }];
  });
  const projects = [...groupUsage(responses, (r) => r.context.project)]
    .map(([project, u]) => ({ project, ...group(u) }))
    .sort(byCost);
  // Per person, where the responses name one (a team server's): a laptop's answer has no `people`.
  const people = [...groupUsage(index.personUsage?.() ?? responses, (r) => r.context.person)]
    .map(([person, u]) => ({ person, ...group(u) }))
    .sort((a, b) => byCost(a, b) || a.person.localeCompare(b.person));
  const topSessions = topSessionGroups(index.sessionUsage?.() ?? responses).map(({ id, u }) => {
    const s = index.getSession(id);
    return {
      // the reference the API and the dashboard's links take (the id, qualified by its folder when needed)
      id: s?.ref ?? id,
      title: s?.title ?? null,
      project: s?.projectPath ?? s?.projectDir ?? null,
      startedAt: s?.startedAt ?? null,
      ...totals(u),
      ...gaps(u),
    };
  });
  // usage limits are each person's: blocks summing several people's responses are no one's (a team's page lists a
  // person's blocks once one is chosen)
  const byPerson = people.length > 1;
  const allBlocks = byPerson ? [] : blocksOfReport(responses, now);
  const blocks = allBlocks.slice(-RECENT_BLOCKS).map((b) => ({
    start: new Date(b.startMs).toISOString(),
    end: new Date(b.endMs).toISOString(),
    isActive: b.isActive,
    remainingMs: b.remainingMs,
    ...group(b.usage),
  }));
  const timeByProject = new Map<string, TimeSumDto & { sessions: number }>();
  const timeByDay = new Map<string, TimeSumDto & { sessions: number }>();
  const { model: _model, ...sessionFilter } = filter;
  const measuredOf = index.telemetry?.measuredBySession();
  let measured: MeasuredTimeDto | undefined;
  for (const s of index.listSessions(sessionFilter)) {
    const m = measuredOf?.get(s.id);
    if (m !== undefined) measured = addMeasured(measured, m, s.time);
    // a session whose wall time is unknown adds nothing to where the time went
    const wallMs = s.time.wallMs;
    if (wallMs === null) continue;
    const time = { ...s.time, wallMs };
    addTime(timeByProject, s.projectPath ?? s.projectDir, time, s.sessions ?? 1);
    if (s.startedAt !== undefined) addTime(timeByDay, dayOf(Date.parse(s.startedAt)), time, s.sessions ?? 1);
  }
  return {
    prices: { date: index.prices.date, source: index.prices.source },
    totals: { ...group(all), cacheHitRatio: cacheHitRatio(all) },
    days,
    // each model's row a lower bound where its responses' records say so (`+ ?`, as the totals)
    models: Object.entries(all.models)
      .map(([model, u]) => ({ model, ...totals(u), ...gaps(all, model) }))
      .sort(byCost),
    projects,
    agents,
    ...(people.length > 0 ? { people } : {}),
    topSessions,
    blocks,
    blocksTotal: allBlocks.length,
    ...(byPerson ? { blocksByPerson: true as const } : {}),
    time: {
      // By active time (wall less idle): a session left open for months does not top where the time went.
      byProject: [...timeByProject]
        .map(([project, t]) => ({ project, ...t }))
        .sort((a, b) => activeMs(b) - activeMs(a) || b.wallMs - a.wallMs),
      byDay: [...timeByDay].map(([date, t]) => ({ date, ...t })).sort((a, b) => a.date.localeCompare(b.date)),
      ...(measured === undefined ? {} : { measured }),
    },
  };
}
