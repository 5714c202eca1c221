import type { AgentId } from '@agentdash/core/model';
import { messageOf } from '@agentdash/core/present';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAgents } from '../../data/agents';
import { api, isUnreachable, type SessionQuery } from '../../data/client';
import { teamScope } from '../../data/team-scope';
import type { SessionRow, SessionsResponse } from '../../data/types';
import { useLiveAnswer } from '../../data/use-live-answer';
import { LIST_RELOAD_MS, useLiveTick } from '../../data/use-live-tick';
import { localDayInstant } from './day-bounds';

/** Rows fetched per page; the server sorts and pages, so 50,000 sessions cost what one page costs. */
const PAGE_ROWS = 150;
/**
 * Rows fetched per page of a search: a screenful and more. A team server cuts each row's snippet from its stored
 * transcripts when the page asks for it, so a page costs its rows, and the first page is what the user waits for.
 */
const SEARCH_PAGE_ROWS = 50;
/** The server's largest page. */
const MAX_FETCH = 1000;

/** The columns the list sorts by (the server's `sort` values). */
export const SORT_KEYS = [
  'startedAt',
  'title',
  'project',
  'durationMs',
  'messages',
  'toolCalls',
  'errors',
  'costUsd',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface Sort {
  readonly key: SortKey;
  readonly dir: 1 | -1;
}

export interface Filters {
  readonly q: string;
  /** One agent's sessions; '' = every agent. */
  readonly agent: AgentId | '';
  readonly project: string;
  readonly model: string;
  readonly version: string;
  readonly since: string;
  readonly until: string;
  readonly hasErrors: boolean;
  /** The sessions whose file tools touched this file (a Files page's link; the server's `file`); '' = any. */
  readonly file: string;
  /** Show the empty and warm-up sessions too (hidden by default). */
  readonly showEmpty: boolean;
}

export const NO_FILTERS: Filters = {
  q: '',
  agent: '',
  project: '',
  model: '',
  version: '',
  since: '',
  until: '',
  hasErrors: false,
  file: '',
  showEmpty: false,
};

export const isFiltered = (f: Filters, q: string): boolean =>
  !!(q || f.agent || f.project || f.model || f.version || f.since || f.until || f.hasErrors || f.file);

/** How often the list asks again while the server cannot be reached. */
const UNREACHABLE_RETRY_MS = 3_000;

/**
 * The list last shown, and for which filters, order and team scope: Back to the list shows it at once, and keeps showing it
 * when the server cannot be reached then, instead of an empty list.
 */
let lastShown:
  | { readonly key: string; readonly data: SessionsResponse; readonly rows: readonly SessionRow[] }
  | undefined;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The sessions the filters select, in pages, reloaded on live changes (keeping how many rows were shown). */
export function useSessionList(filters: Filters, sort: Sort) {
  // a team server's person and device filter too: another scope's sessions are not these
  const shownKey = JSON.stringify([filters, sort, teamScope()]);
  const [shown] = useState(() => (lastShown?.key === shownKey ? lastShown : undefined));
  const [data, setData] = useState<SessionsResponse | undefined>(shown?.data);
  const [rows, setRows] = useState<readonly SessionRow[]>(shown?.rows ?? []);
  const [error, setError] = useState<string | undefined>();
  // the last request failed for want of the server: asked again every few seconds until it answers
  const [unreachable, setUnreachable] = useState(false);
  const [retry, setRetry] = useState(0);
  const [loadingMore, setLoadingMore] = useState(false);
  const dq = useDebounced(filters.q.trim(), 220);
  const pageRows = dq ? SEARCH_PAGE_ROWS : PAGE_ROWS;
  const loaded = useRef(Math.max(pageRows, shown?.rows.length ?? 0));

  const failed = useCallback((e: unknown) => {
    setError(messageOf(e));
    setUnreachable(isUnreachable(e));
  }, []);
  useEffect(() => {
    if (!unreachable) return;
    const timer = setInterval(() => setRetry((n) => n + 1), UNREACHABLE_RETRY_MS);
    return () => clearInterval(timer);
  }, [unreachable]);
  useEffect(() => {
    if (data) lastShown = { key: shownKey, data, rows };
  }, [shownKey, data, rows]);

  const tick = useLiveTick(LIST_RELOAD_MS);

  // The address may name an agent the server does not read (it answers that with 400): the list asks for one agent
  // once `GET /api/agents` lists it, and for every agent when it does not.
  const agents = useAgents();
  const { q: _q, showEmpty, agent, ...rest } = filters;
  const waitsForAgents = agent !== '' && agents === undefined;
  const query: SessionQuery = {
    ...rest,
    since: localDayInstant(rest.since, false),
    until: localDayInstant(rest.until, true),
    ...(agent && agents?.some((a) => a.id === agent) ? { agent } : {}),
    q: dq,
    hideEmpty: !showEmpty,
    // The server orders the whole list (cost included); search results keep their relevance order.
    ...(dq ? {} : { sort: sort.key, dir: sort.dir === 1 ? 'asc' : 'desc' }),
  };
  const queryKey = JSON.stringify(query);
  // the rows shown again at mount are kept on the first load, not cut to one page
  const firstQueryKey = useRef<string | undefined>(queryKey);
  // The query whose answer the rows shown are: the last one answered, or at mount the one shown again (`lastShown`).
  const [answeredKey, setAnsweredKey] = useState<string | undefined>();
  const mountKey = useRef(queryKey);
  const shownFor = answeredKey ?? (shown ? mountKey.current : undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter or order starts from the first page
  useEffect(() => {
    if (queryKey !== firstQueryKey.current) loaded.current = pageRows;
    firstQueryKey.current = undefined;
  }, [queryKey]);

  // A live change or a retry asks again once the answer on its way is in (a search can take longer than a second).
  useLiveAnswer(waitsForAgents ? undefined : queryKey, tick + retry, {
    ask: (signal) =>
      api
        .sessions({ ...query, offset: 0, limit: Math.min(Math.max(loaded.current, pageRows), MAX_FETCH) }, signal)
        .then((r) => ({ r, key: queryKey })),
    take: ({ r, key }) => {
      setData(r);
      setRows(r.sessions);
      setAnsweredKey(key);
      setError(undefined);
      setUnreachable(false);
    },
    fail: failed,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey stands for query
  const showMore = useCallback(() => {
    setLoadingMore(true);
    api
      .sessions({ ...query, offset: rows.length, limit: pageRows * 2 })
      .then((r) => {
        setData(r);
        setRows((old) => {
          const seen = new Set(old.map((x) => x.id));
          const next = [...old, ...r.sessions.filter((x) => !seen.has(x.id))];
          loaded.current = next.length;
          return next;
        });
      })
      .catch(failed)
      .finally(() => setLoadingMore(false));
  }, [queryKey, rows.length]);

  // Rows of another order or filters, shown until this one's answer is in (kept, not blanked, meanwhile).
  const stale = shownFor !== undefined && shownFor !== queryKey;
  return {
    data,
    rows,
    stale,
    error,
    unreachable,
    showMore,
    loadingMore,
    searching: dq !== '',
    searchText: dq,
    // which list this is (filters, order, scope), and whether its rows are those last shown, shown again at once
    listKey: shownKey,
    restored: shown !== undefined,
  };
}
