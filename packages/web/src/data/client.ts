/**
 * Every request of the dashboard goes through this module. Two sources: the server over HTTP (live), or a session
 * embedded in the page (an HTML export, see `setStaticSource`).
 */
import { answerStatic, type StaticSessionData } from './static-source';
import { teamScope } from './team-scope';
import type {
  AgentsResponse,
  CallDto,
  CallRowDto,
  CallsResponse,
  EventsPage,
  FindResponse,
  HealthResponse,
  IssueDto,
  LiveMessage,
  MeasuredResponse,
  SessionDetail,
  SessionErrorsResponse,
  SessionsResponse,
  StatsResponse,
  TeamPeopleResponse,
  TelemetryIdsResponse,
  TelemetrySessionsResponse,
  TelemetrySetupResponse,
  TelemetryStepsResponse,
  UsageResponse,
  WaterfallResponse,
} from './types';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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

async function get<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
  if (staticData) {
    const answer = answerStatic(staticData, path, query);
    if (answer === undefined) throw new ApiRequestError(404, 'not part of this export');
    return answer as T;
  }
  // a team server's person and device filter applies to every page (empty on a local server)
  const response = await fetch(`api${path}${qs({ ...teamScope(), ...query })}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.json()) as { error?: string };
      if (body.error) message = body.error;
    } catch {
      // not JSON
    }
    throw new ApiRequestError(response.status, message);
  }
  return (await response.json()) as T;
}

/** The browser's IANA time zone (undefined when the runtime does not tell). */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export interface SessionQuery {
  readonly q?: string;
  /** One agent's sessions; '' or absent: every agent. */
  readonly agent?: string;
  readonly project?: string;
  readonly model?: string;
  readonly version?: string;
  readonly since?: string;
  readonly until?: string;
  readonly hasErrors?: boolean;
  readonly hideEmpty?: boolean;
  readonly offset?: number;
  readonly limit?: number;
  readonly sort?: string;
  readonly dir?: 'asc' | 'desc';
}

const enc = encodeURIComponent;

export const api = {
  health: (signal?: AbortSignal) => get<HealthResponse>('/health', {}, signal),
  /** A team server's people and their devices (the person filter's choices); 404 on a local server. */
  team: (signal?: AbortSignal) => get<TeamPeopleResponse>('/team/people', {}, signal),
  /** Every agent's label and resume command, as its adapter declares them. */
  agents: (signal?: AbortSignal) => get<AgentsResponse>('/agents', {}, signal),
  sessions: (query: SessionQuery, signal?: AbortSignal) => get<SessionsResponse>('/sessions', { ...query }, signal),
  /** The header. */
  session: (id: string, signal?: AbortSignal) => get<SessionDetail>(`/sessions/${enc(id)}`, {}, signal),
  events: (id: string, offset: number, limit: number, agent?: string, signal?: AbortSignal) =>
    get<EventsPage>(`/sessions/${enc(id)}/events`, { offset, limit, agent }, signal),
  call: (id: string, callId: string) => get<CallDto>(`/sessions/${enc(id)}/calls/${enc(callId)}`),
  locate: (id: string, callId: string) =>
    get<{ index: number; expand: string[] }>(`/sessions/${enc(id)}/locate/${enc(callId)}`),
  errors: (id: string, signal?: AbortSignal) => get<SessionErrorsResponse>(`/sessions/${enc(id)}/errors`, {}, signal),
  find: (id: string, q: string, signal?: AbortSignal) => get<FindResponse>(`/sessions/${enc(id)}/find`, { q }, signal),
  issues: (id: string) => get<{ issues: IssueDto[] }>(`/sessions/${enc(id)}/issues`),
  stats: (query: { agent?: string; project?: string; since?: string; until?: string }, signal?: AbortSignal) =>
    get<StatsResponse>('/stats', { ...query }, signal),
  usage: (
    query: { agent?: string; project?: string; model?: string; since?: string; until?: string },
    signal?: AbortSignal, // days of the person's own time zone, not the server's
  ) => get<UsageResponse>('/usage', { ...query, tz: browserTimeZone() }, signal),
  waterfall: (id: string, signal?: AbortSignal) => get<WaterfallResponse>(`/sessions/${enc(id)}/waterfall`, {}, signal),
  calls: (query: {
    tool?: string;
    status?: string;
    category?: string;
    severity?: string;
    agent?: string;
    project?: string;
    since?: string;
    limit?: number;
  }): Promise<readonly CallRowDto[]> => get<CallsResponse>('/calls', { ...query }).then((r) => r.calls),
  /** Claude Code's own telemetry (OTLP) as `serve` received it: see docs/telemetry.md. */
  telemetry: {
    setup: (signal?: AbortSignal) => get<TelemetrySetupResponse>('/telemetry/setup', {}, signal),
    ids: (signal?: AbortSignal) => get<TelemetryIdsResponse>('/telemetry/ids', {}, signal),
    /** Sessions known only from telemetry (no transcript indexed). */
    only: (signal?: AbortSignal) => get<TelemetrySessionsResponse>('/telemetry/sessions', {}, signal),
    /** A session's measured figures, or null when it has no telemetry. */
    session: (id: string, signal?: AbortSignal) =>
      get<MeasuredResponse>(`/telemetry/measured/${enc(id)}`, {}, signal).then((r) => r.telemetry),
    steps: (id: string, signal?: AbortSignal) =>
      get<TelemetryStepsResponse>(`/telemetry/sessions/${enc(id)}/steps`, {}, signal),
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
