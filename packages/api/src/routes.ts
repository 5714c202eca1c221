/**
 * The route table: every JSON route of the API under `/api`, with the query it takes and the answer it gives. The
 * dashboard's client is typed by it (a path not listed, a query field a route does not take, or a field its answer
 * lacks is a compile error), and the server's zod schemas are checked against the queries (`routes/schemas.ts`).
 * @module
 */
import type { AgentId, ErrorCategory, ErrorSeverity } from '@agentdash/core/model';
import type {
  AgentsResponse,
  CallDto,
  EventsPage,
  FilesResponse,
  HealthResponse,
  IssueDto,
  SessionDetail,
  SessionErrorsResponse,
  SessionsResponse,
  TeamPeopleResponse,
  UsageResponse,
  WaterfallResponse,
} from './api-types.js';
import type { FindResponse } from './find-text.js';
import type { CallsResponse, StatsResponse } from './stats-types.js';
import type {
  MeasuredResponse,
  SessionTelemetryDto,
  TelemetryIdsResponse,
  TelemetrySessionsResponse,
  TelemetrySetupResponse,
  TelemetryStepsResponse,
} from './telemetry-types.js';

/** How the sessions list can be ordered (the index's `sessionSorts`). */
export type SessionSort =
  | 'startedAt'
  | 'endedAt'
  | 'title'
  | 'project'
  | 'durationMs'
  | 'messages'
  | 'toolCalls'
  | 'errors'
  | 'costUsd';

/** A call's state as `/calls` filters it. */
export type CallStatusFilter = 'ok' | 'error' | 'pending' | 'unanswered';

/** A team server's filters, on every route (a local server has one person and ignores them). */
export interface TeamQuery {
  readonly person?: string;
  readonly device?: string;
}

/** `GET /api/stats`: dates are anything `Date.parse` reads. */
export interface StatsQuery extends TeamQuery {
  readonly agent?: AgentId;
  readonly project?: string;
  readonly since?: string;
  readonly until?: string;
}

export interface SessionsQuery extends StatsQuery {
  /** Full-text search: relevance order, with snippets. */
  readonly q?: string;
  readonly model?: string;
  readonly version?: string;
  readonly hasErrors?: boolean;
  readonly hideEmpty?: boolean;
  /**
   * Only the sessions whose calls (file tools, shell commands) read or changed this file (the index's `file`
   * filter): an absolute path exactly, a relative one as the end of a path on whole segments. A team server answers 400
   * `FILE_FILTER_UNSUPPORTED` (it keeps no tool inputs); the dashboard offers it on a local server only.
   */
  readonly file?: string;
  readonly offset?: number;
  /** Rows of a page: 200 by default, at most 1000. */
  readonly limit?: number;
  readonly sort?: SessionSort;
  readonly dir?: 'asc' | 'desc';
}

export interface EventsQuery {
  readonly offset?: number;
  /** Events of a page: 100 by default, at most 500. */
  readonly limit?: number;
  /** A subagent's key; absent: the main thread. */
  readonly agent?: string;
  /** Bookkeeping records too. */
  readonly all?: boolean;
}

export interface FindQuery {
  readonly q: string;
}

/** A query whose answer has days: in this IANA time zone (the browser's), else the server's. */
export interface ZonedQuery {
  readonly tz?: string;
}

/** `GET /api/stats?…&tz`: `StatsQuery`, its days and weeks in `tz`. */
export interface StatsPageQuery extends StatsQuery, ZonedQuery {}

export interface UsageQuery extends StatsQuery, ZonedQuery {
  readonly model?: string;
}

export interface CallsQuery extends StatsQuery {
  readonly tool?: string;
  readonly status?: CallStatusFilter;
  readonly category?: ErrorCategory;
  readonly severity?: ErrorSeverity;
  /** At most 2000; 200 by default. */
  readonly limit?: number;
}

/** `GET /api/sessions/:id/calls`: the session's calls, first first (subagents' too), as the index holds them. */
export interface SessionCallsQuery {
  /** At most 5000; 2000 by default (the first ones). */
  readonly limit?: number;
}

/** `GET /api/sessions/:id/calls/:callId`: one call whole, or each of its texts cut at `chars` characters. */
export interface CallQuery {
  /** At least 12,000 (the timeline's cut); absent: every text whole, however long. */
  readonly chars?: number;
}

/** `GET /api/sessions/:id/locate/:callId`: the call's event in the main timeline, and the subagent calls to open. */
export interface LocateResponse {
  readonly index: number;
  readonly expand: string[];
}

export interface IssuesResponse {
  readonly issues: IssueDto[];
}

/** A session file held at its last complete version, and the newer partial copy kept beside it in the archive. */
export interface HeldFileDto {
  readonly path: string;
  readonly role: 'main' | 'subagent';
  /** The last complete version: what the session shows. */
  readonly complete: { readonly bytes: number; readonly records: number };
  /** The newer copy that was on disk (shorter, replaced or no longer parsing). */
  readonly partial: {
    readonly bytes: number;
    readonly records: number;
    /** Why it is not shown. */
    readonly reason: string;
    /** When the copy was first kept (ISO time). */
    readonly keptAt: string;
  };
}

/** `GET /api/sessions/:id/versions`: `held` is empty when every file is shown as it is on disk (or as archived). */
export interface SessionVersionsResponse {
  readonly sessionId: string;
  readonly held: readonly HeldFileDto[];
}

/** A route that takes no query. */
export type NoQuery = { readonly [name: string]: never };

interface Route<Response, Query = NoQuery> {
  readonly query: Query;
  readonly response: Response;
}

export interface ApiRoutes {
  '/health': Route<HealthResponse>;
  '/agents': Route<AgentsResponse>;
  /** A team server's people and their devices; 404 on a local server. */
  '/team/people': Route<TeamPeopleResponse>;
  '/sessions': Route<SessionsResponse, SessionsQuery>;
  '/sessions/:id': Route<SessionDetail>;
  '/sessions/:id/events': Route<EventsPage, EventsQuery>;
  '/sessions/:id/calls': Route<CallsResponse, SessionCallsQuery>;
  '/sessions/:id/calls/:callId': Route<CallDto, CallQuery>;
  '/sessions/:id/locate/:callId': Route<LocateResponse>;
  '/sessions/:id/errors': Route<SessionErrorsResponse>;
  '/sessions/:id/find': Route<FindResponse, FindQuery>;
  '/sessions/:id/issues': Route<IssuesResponse>;
  '/sessions/:id/waterfall': Route<WaterfallResponse>;
  '/sessions/:id/files': Route<FilesResponse>;
  '/sessions/:id/versions': Route<SessionVersionsResponse>;
  '/stats': Route<StatsResponse, StatsPageQuery>;
  '/usage': Route<UsageResponse, UsageQuery>;
  '/calls': Route<CallsResponse, CallsQuery>;
  '/telemetry/setup': Route<TelemetrySetupResponse>;
  '/telemetry/ids': Route<TelemetryIdsResponse>;
  '/telemetry/sessions': Route<TelemetrySessionsResponse>;
  /** 404 when the session has no telemetry (`/telemetry/measured/:id` answers null instead). */
  '/telemetry/sessions/:id': Route<SessionTelemetryDto>;
  '/telemetry/measured/:id': Route<MeasuredResponse>;
  '/telemetry/sessions/:id/steps': Route<TelemetryStepsResponse>;
}

export type ApiPath = keyof ApiRoutes;
export type ApiQuery<P extends ApiPath> = ApiRoutes[P]['query'];
export type ApiResponse<P extends ApiPath> = ApiRoutes[P]['response'];

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values of a path's `:name` segments. */
export type PathParams<P extends string> = { readonly [K in ParamNames<P>]: string };

/** The path with each `:name` segment replaced by its value, encoded (`/sessions/:id` → `/sessions/a%2Fb`). */
export function fillPath<P extends ApiPath>(path: P, params: PathParams<P>): string {
  const values = params as Readonly<Record<string, string>>;
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
