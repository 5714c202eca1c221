/**
 * Every request of the dashboard goes through this module. Two sources: the server over HTTP (live), or a session
 * embedded in the page (an HTML export, see `setStaticSource`).
 */
import {
  type ApiPath,
  type ApiQuery,
  type ApiResponse,
  type CallsQuery,
  fillPath,
  type PathParams,
  type SessionsQuery,
  type StatsQuery,
  type UsageQuery,
} from '@agentdash/api';
import { answerStatic, type StaticSessionData } from './static-source';
import { teamScope } from './team-scope';
import type { CallRowDto, LiveMessage } from './types';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The sessions an ambiguous reference names (a 409 `AMBIGUOUS_SESSION`), each a reference of its own. */
    readonly candidates: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * Whether a request failed for want of the server (stopped, restarting, the network down: the browser's fetch
 * fails outright, or a proxy in front answers 502, 503 or 504), not because the server refused it.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiRequestError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError;
}

type Query = Readonly<Record<string, string | number | boolean | undefined | null>>;

function qs(query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

let staticData: StaticSessionData | undefined;

/** Answer every request from `data` (an HTML export): no request leaves the page, no live updates. */
export function setStaticSource(data: StaticSessionData): void {
  staticData = data;
}

/** The embedded export, when the page is one. */
export function staticSource(): StaticSessionData | undefined {
  return staticData;
}

/**
 * A GET of a route of the table in `@agentdash/api`: the path must be one of it, its `:name` segments filled from
 * `params`, the query one the route takes, and the answer is the route's type.
 */
export async function apiGet<P extends ApiPath>(
  route: P,
  params: PathParams<P>,
  query: ApiQuery<P>,
  signal?: AbortSignal,
): Promise<ApiResponse<P>> {
  const path = fillPath(route, params);
  const values = query as Query;
  if (staticData) {
    const answer = answerStatic(staticData, path, values);
    if (answer === undefined) throw new ApiRequestError(404, 'not part of this export');
    return answer as ApiResponse<P>;
  }
  // a team server's person and device filter applies to every page (empty on a local server)
  const response = await fetch(`api${path}${qs({ ...teamScope(), ...values })}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    let candidates: readonly string[] = [];
    try {
      const body = (await response.json()) as { error?: string; candidates?: unknown };
      if (body.error) message = body.error;
      if (Array.isArray(body.candidates)) candidates = body.candidates.filter((c) => typeof c === 'string');
    } catch {
      // not JSON
    }
    throw new ApiRequestError(response.status, message, candidates);
  }
  return (await response.json()) as ApiResponse<P>;
}

/** The browser's IANA time zone (undefined when the runtime does not tell). */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The sessions list's query: '' or an absent agent is every agent. */
export type SessionQuery = SessionsQuery;

const none = {} as const;

export const api = {
  health: (signal?: AbortSignal) => apiGet('/health', none, none, signal),
  /** A team server's people and their devices (the person filter's choices); 404 on a local server. */
  team: (signal?: AbortSignal) => apiGet('/team/people', none, none, signal),
  /** Every agent's label and resume command, as its adapter declares them. */
  agents: (signal?: AbortSignal) => apiGet('/agents', none, none, signal),
  sessions: (query: SessionsQuery, signal?: AbortSignal) => apiGet('/sessions', none, query, signal),
  /** The header. */
  session: (id: string, signal?: AbortSignal) => apiGet('/sessions/:id', { id }, none, signal),
  events: (id: string, offset: number, limit: number, agent?: string, signal?: AbortSignal) =>
    apiGet('/sessions/:id/events', { id }, { offset, limit, agent }, signal),
  /** The session's calls as the index holds them, first first (a team session shared below the full tier). */
  sessionCalls: (id: string, signal?: AbortSignal): Promise<readonly CallRowDto[]> =>
    apiGet('/sessions/:id/calls', { id }, none, signal).then((r) => r.calls),
  /** A call whole, or each of its texts cut at `chars` characters. */
  call: (id: string, callId: string, chars?: number) =>
    apiGet('/sessions/:id/calls/:callId', { id, callId }, chars === undefined ? none : { chars }),
  locate: (id: string, callId: string) => apiGet('/sessions/:id/locate/:callId', { id, callId }, none),
  errors: (id: string, signal?: AbortSignal) => apiGet('/sessions/:id/errors', { id }, none, signal),
  find: (id: string, q: string, signal?: AbortSignal) => apiGet('/sessions/:id/find', { id }, { q }, signal),
  issues: (id: string) => apiGet('/sessions/:id/issues', { id }, none),
  // Days and weeks of the person's own time zone, not the server's.
  stats: (query: StatsQuery, signal?: AbortSignal) =>
    apiGet('/stats', none, { ...query, tz: browserTimeZone() }, signal),
  usage: (query: UsageQuery, signal?: AbortSignal) =>
    apiGet('/usage', none, { ...query, tz: browserTimeZone() }, signal),
  waterfall: (id: string, signal?: AbortSignal) => apiGet('/sessions/:id/waterfall', { id }, none, signal),
  files: (id: string, signal?: AbortSignal) => apiGet('/sessions/:id/files', { id }, none, signal),
  calls: (query: CallsQuery): Promise<readonly CallRowDto[]> => apiGet('/calls', none, query).then((r) => r.calls),
  /** Claude Code's own telemetry (OTLP) as `serve` received it: see docs/telemetry.md. */
  telemetry: {
    setup: (signal?: AbortSignal) => apiGet('/telemetry/setup', none, none, signal),
    ids: (signal?: AbortSignal) => apiGet('/telemetry/ids', none, none, signal),
    /** Sessions known only from telemetry (no transcript indexed). */
    only: (signal?: AbortSignal) => apiGet('/telemetry/sessions', none, none, signal),
    /** A session's measured figures, or null when it has no telemetry. */
    session: (id: string, signal?: AbortSignal) =>
      apiGet('/telemetry/measured/:id', { id }, none, signal).then((r) => r.telemetry),
    steps: (id: string, signal?: AbortSignal) => apiGet('/telemetry/sessions/:id/steps', { id }, none, signal),
  },
};

type LiveHandler = (message: LiveMessage) => void;
const handlers = new Set<LiveHandler>();
let source: EventSource | undefined;
let connected = false;
const statusHandlers = new Set<(connected: boolean) => void>();

function ensureSource(): void {
  if (source || staticData || typeof EventSource === 'undefined') return;
  source = new EventSource('api/events');
  const dispatch = (event: MessageEvent<string>) => {
    try {
      const message = JSON.parse(event.data) as LiveMessage;
      for (const h of handlers) h(message);
    } catch {
      // ignore malformed events
    }
  };
  source.addEventListener('session-updated', dispatch);
  source.addEventListener('sessions-changed', dispatch);
  source.addEventListener('index-progress', dispatch);
  source.addEventListener('hello', () => setConnected(true));
  source.addEventListener('open', () => setConnected(true));
  source.addEventListener('error', () => setConnected(false));
}

function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const h of statusHandlers) h(value);
}

/** Subscribe to live updates (one shared EventSource). */
export function subscribeLive(handler: LiveHandler): () => void {
  handlers.add(handler);
  ensureSource();
  return () => handlers.delete(handler);
}

export function subscribeConnection(handler: (connected: boolean) => void): () => void {
  statusHandlers.add(handler);
  ensureSource();
  handler(connected);
  return () => statusHandlers.delete(handler);
}
