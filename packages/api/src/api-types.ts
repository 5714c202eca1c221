/**
 * The JSON contract between the AgentDash server and the web dashboard. Browser-safe: types only.
 * @module
 */
import type {
  AgentId,
  CallInput,
  CallStatus,
  DataKind,
  ErrorCategory,
  ErrorSeverity,
  HiddenReason,
  ImageValue,
  NoResultReason,
  ResultContent,
  SessionCounts,
  SubagentSummary,
  TypedResult,
  Usage,
  UsageTotals,
} from '@agentdash/core/model';
import type { AgentVersions, FileActivity } from '@agentdash/core/present';
import type { IndexStatus } from './health-types.js';

/** `GET /api/sessions/:id/waterfall`: the session on a true time axis, one lane per thread. */
export type { Waterfall as WaterfallResponse, WaterfallBar, WaterfallLane } from '@agentdash/core/time';
export type { FileActivity };

/**
 * `GET /api/sessions/:id/files`: every file the session's file tools read, wrote, edited, created, deleted or moved,
 * and those its shell commands plainly did so to (core's `shellFilesOf`), with its calls (core's `fileActivityOf`):
 * the changed files first, then those only read, each group by path.
 */
export interface FilesResponse {
  /** The session's working folder (paths under it are shown relative to it); null when its records name none. */
  readonly projectPath: string | null;
  readonly files: readonly FileActivity[];
}

export type * from './errors-types.js';
export type * from './health-types.js';

/**
 * What a cost leaves out (core's `CostGaps`: `formatCost(costUsd, this)` marks a lower bound): models some of whose
 * responses recorded no input, or kept only the stream's first output count; absent when none (and in a team's copy).
 */
export interface UnrecordedDto {
  readonly inputUnrecordedModels?: readonly string[] | undefined;
  readonly outputUnrecordedModels?: readonly string[] | undefined;
}

export interface SessionRow extends UnrecordedDto {
  readonly id: string;
  /** The agent that wrote the session. */
  readonly agent: AgentId;
  readonly projectPath: string | null;
  readonly title: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly durationMs: number | null;
  /** Prompts and responses: the session's own (a fork's or resume's copies count where they began), as `toolCalls`. */
  readonly messages: number;
  /** Its own prompts, among `messages`; absent where the source does not tell. */
  readonly prompts?: number;
  readonly toolCalls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /**
   * Requests to the model the agent gave up on (an API error ended the turn: a 400, a 500 or 429 past its retries),
   * not among `errors` (calls'); absent when none, or where the source does not tell (a team's copy).
   */
  readonly apiErrors?: number;
  /** Failed attempts the agent retried (a 529 Overloaded, a dropped stream); absent when none, or not told. */
  readonly apiRetries?: number;
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly isLive: boolean;
  /** Its files are gone from disk (Claude Code's cleanup); it is read from the index's archive. */
  readonly archived: boolean;
  /**
   * Requests Claude Code 2.0.x sent only to warm a subagent's prompt cache (billed, in the tokens and cost; not
   * messages of the conversation); absent when none, or where the source does not tell (a team's copy).
   */
  readonly warmups?: number;
  /** USD of the priced models; null when none of the session's models has a price; 0 when it billed no response. */
  readonly costUsd: number | null;
  /** Models without a price (the session costs more than `costUsd`). */
  readonly unpricedModels: readonly string[];
  /** All tokens of the session (input, output, cache writes and reads), each response once, subagents included. */
  readonly tokens: number;
  /** Where the main thread's time went (`wallMs` null when its wall time is unknown); null when none is given. */
  readonly time: TimeDto | null;
  /** Secret findings in the session's transcripts (exports redact them); the secrets themselves are not stored. */
  readonly secrets: number;
  /** Search snippet (with \u0001…\u0002 highlight markers) when the list comes from a search. */
  readonly snippet?: string | undefined;
  /** The tool call the search hit is in, when it is in one. */
  readonly matchCallId?: string | undefined;
  /** On a team server: who pushed it, from which device, at which sharing tier (what it holds). */
  readonly person?: string | undefined;
  readonly device?: string | undefined;
  readonly tier?: 'summary' | 'metadata' | 'full' | undefined;
}

/**
 * A session's main-thread time: the parts sum to `wallMs`. `wallMs` is null when the wall time is unknown (its
 * records give no span: one timestamp for the whole thread, or none; the parts are then 0), never 0 for it; its
 * `durationMs` is then null too.
 */
export interface TimeDto {
  readonly wallMs: number | null;
  readonly modelMs: number;
  readonly toolMs: number;
  readonly userMs: number;
  readonly idleMs: number;
}

/** A group's main-thread time: the sums over its sessions whose wall time is known (the others are left out). */
export interface TimeSumDto extends TimeDto {
  readonly wallMs: number;
}

/** Tokens and cost of a set of responses. */
export interface UsageTotalsDto {
  readonly responses: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning (Codex reasoning, Gemini thoughts); 0 for Claude Code. */
  readonly reasoningOutputTokens: number;
  /** null when no model of the group has a price. */
  readonly costUsd: number | null;
}

export interface UsageGroupDto extends UsageTotalsDto, UnrecordedDto {
  readonly models: Readonly<Record<string, UsageTotalsDto>>;
  readonly unpricedModels: readonly string[];
}

/** `GET /api/usage?project&model&since&until&tz`: each API response once, priced; days in `tz` (an IANA name, the browser's) or the server's time zone. */
export interface UsageResponse {
  readonly prices: { readonly date: string; readonly source: string };
  readonly totals: UsageGroupDto & { readonly cacheHitRatio: number };
  readonly days: readonly (UsageGroupDto & { readonly date: string })[];
  /** Per model; a model's cost is a lower bound where its gaps name it. */
  readonly models: readonly (UsageTotalsDto & UnrecordedDto & { readonly model: string })[];
  readonly projects: readonly (UsageGroupDto & { readonly project: string })[];
  /** Usage and cost per agent (agents with responses in scope only). */
  readonly agents: readonly (UsageGroupDto & { readonly agent: AgentId })[];
  /**
   * A team server's usage and cost per person who pushed the sessions (people with responses in scope only),
   * costliest first; absent on a local server, whose sessions are one person's.
   */
  readonly people?: readonly (UsageGroupDto & { readonly person: string })[];
  readonly topSessions: readonly (UsageTotalsDto &
    UnrecordedDto & {
      readonly id: string;
      readonly title: string | null;
      readonly project: string | null;
      readonly startedAt: string | null;
    })[];
  /** The most recent 5-hour blocks (at most 30), oldest first; `blocksTotal` counts them all. */
  readonly blocks: readonly (UsageGroupDto & {
    readonly start: string;
    readonly end: string;
    readonly isActive: boolean;
    readonly remainingMs: number;
  })[];
  readonly blocksTotal: number;
  /**
   * True when the responses are several people's (a team server's page without a person chosen): usage limits are each
   * person's own, so `blocks` is empty and a block sums no one's; choosing a person lists theirs.
   */
  readonly blocksByPerson?: true;
  /**
   * Sessions' main-thread time per project and per day (of the session's start), of the sessions whose wall time is
   * known.
   */
  readonly time: {
    readonly byProject: readonly (TimeSumDto & { readonly project: string; readonly sessions: number })[];
    readonly byDay: readonly (TimeSumDto & { readonly date: string; readonly sessions: number })[];
    /** The sessions with Claude Code's telemetry: their measured model and tool time (absent: none). */
    readonly measured?: import('./telemetry-types.js').MeasuredTimeDto;
  };
}

/**
 * `GET /api/sessions?offset&limit&sort&dir`: one page (default 200 rows, at most 1000), sorted by `sort`
 * (startedAt, endedAt, title, project, durationMs, messages, toolCalls, errors, costUsd; default startedAt) in `dir`
 * (desc by default). With `q`, search hits in relevance order instead.
 */
export interface SessionsResponse {
  readonly sessions: readonly SessionRow[];
  /** Sessions selected over all pages. */
  readonly total: number;
  /** Position of the first row of this page. */
  readonly offset: number;
  /** Sums over all selected sessions. */
  readonly totals: {
    readonly toolCalls: number;
    readonly errors: number;
    readonly expectedErrors: number;
    /** Requests the agents gave up on (`SessionRow.apiErrors`); absent where the source does not tell (a team). */
    readonly apiErrors?: number;
    readonly live: number;
  };
  readonly facets: {
    readonly projects: readonly string[];
    readonly models: readonly string[];
    /** Every client version, oldest first (`1.0.51` before `1.0.128`). */
    readonly versions: readonly string[];
    /** Each agent that has a session, in the registry's order, with its versions oldest first. */
    readonly agents: readonly AgentVersions<AgentId>[];
  };
  /** With `hideEmpty=1`: how many sessions the filter left out as empty or warm-up ones. */
  readonly hiddenEmpty?: number;
  /**
   * With `q`, when the search reached it: the most sessions a search looks at (each session's best hit, the best
   * first), so more may match than `total` says: narrower words or filters find them.
   */
  readonly searchCap?: number;
}

/** A subagent run as the header lists it. */
export type SubagentInfo = SubagentSummary;

export interface SessionDetail {
  readonly session: SessionRow;
  readonly gitBranch: string | null;
  readonly totalEvents: number;
  /**
   * Whether the session's main file is here. Without it (a home copied without it), the main timeline is its
   * subagents no call started, one after another (core's `headerCountsOf`): the header does not list them again.
   */
  readonly mainFile: boolean;
  readonly subagents: readonly SubagentInfo[];
  readonly usageByModel: Readonly<Record<string, UsageTotals>>;
  readonly counts: SessionCounts;
  readonly issues: number;
  readonly toolCounts: Readonly<Record<string, number>>;
  /** Background shell / task id → id of the call that started it. */
  readonly shells: Readonly<Record<string, string>>;
  /**
   * What a resume or fork copied into this transcript from sessions that own it: the sessions list, statistics and
   * usage count those calls and responses there, not here (empty when the transcript holds no copies, when the
   * header was made without the index, or on the team server for a session an older laptop pushed, payload 1).
   */
  readonly copiedFrom: readonly CopiedFromDto[];
}

/** The calls and responses of one earlier session copied into a session's transcript. */
export interface CopiedFromDto extends UnrecordedDto {
  /** The owning session's reference (it opens it) and title. */
  readonly ref: string;
  readonly title: string | null;
  /** The owner is another copy of this very session (the same id in another folder): no resume. */
  readonly sameSession: boolean;
  readonly calls: number;
  /** Of the copied calls, those that failed (expected failures too), and the expected ones. */
  readonly errors: number;
  readonly expectedErrors: number;
  /**
   * Its prompts copied here (this transcript's main thread), each counted for the session that owns it; absent where
   * the source does not tell (a team server's copy).
   */
  readonly prompts?: number;
  readonly responses: number;
  /** What the copied responses cost; null when a model of them has no price. */
  readonly costUsd: number | null;
  /** The copied calls' ids, in the transcript's order. */
  readonly callIds: readonly string[];
}

export interface ResultDto {
  readonly isError: boolean;
  readonly content: ResultContent;
  /** The structured output as the agent wrote it (kept for `--json` parity; the dashboard reads `typed`). */
  readonly toolUseResult: unknown;
  /** The result typed onto the shared kinds (`core/model` `TypedResult`); long strings cut as elsewhere. */
  readonly typed: TypedResult;
  readonly error: {
    readonly category: ErrorCategory;
    readonly severity: ErrorSeverity;
    readonly message: string;
    readonly exitCode?: number | undefined;
  } | null;
  readonly images: readonly ImageValue[];
  readonly timestamp: string | null;
}

export interface CallDto {
  readonly kind: 'tool-call';
  readonly id: string;
  readonly name: string;
  readonly canonicalName: string;
  /** The kind the tool's results are typed onto, known before its result; null for a tool core does not know. */
  readonly toolKind: DataKind | null;
  readonly input: unknown;
  /** The input under the shared names (`core/model` `CallInput`), for every agent; `{}` when the adapter maps none. */
  readonly typedInput: CallInput;
  readonly timestamp: string | null;
  readonly status: CallStatus;
  /** With status `unanswered`: why it has no result (absent from snapshots exported before it was added). */
  readonly noResult?: NoResultReason;
  readonly durationMs: number | null;
  readonly durations: readonly { readonly source: string; readonly ms: number }[];
  readonly agentId: string | null;
  readonly subagentKey: string | null;
  readonly subagent: SubagentInfo | null;
  /** A TaskUpdate's or TaskGet's task subject, as the session's calls gave it (absent: none, or an older server). */
  readonly taskSubject?: string;
  readonly result: ResultDto | null;
  /** True when long strings or lists were cut; GET /api/sessions/:id/calls/:callId has everything. */
  readonly truncated: boolean;
}

export type AssistantItemDto =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'thinking'; readonly thinking: string; readonly redacted: boolean }
  | CallDto
  | { readonly kind: 'other-block'; readonly type: string; readonly raw: unknown };

export type EventDto =
  | {
      readonly kind: 'prompt';
      readonly index: number;
      readonly uuid: string;
      readonly timestamp: string | null;
      readonly text: string;
      readonly images: readonly ImageValue[];
      /** Its other blocks (a document, a block of a type not known), each named by its kind and kept raw. */
      readonly others?: readonly { readonly type: string; readonly raw: unknown }[];
    }
  | {
      readonly kind: 'assistant';
      readonly index: number;
      readonly messageId: string;
      readonly timestamp: string | null;
      readonly model: string | null;
      readonly usage: Usage | null;
      readonly stopReason: string | null;
      readonly isApiError: boolean;
      readonly isSynthetic: boolean;
      readonly items: readonly AssistantItemDto[];
    }
  | {
      readonly kind: 'note';
      readonly index: number;
      readonly timestamp: string | null;
      /** hidden reason, system subtype, attachment type… */
      readonly label: string;
      readonly source: 'hidden' | 'system' | 'attachment' | 'progress' | 'side' | 'unknown';
      readonly reason: HiddenReason | null;
      readonly level: string | null;
      readonly text: string;
      readonly truncated: boolean;
      /** A hidden user message's images (`tool-image`: an image a tool attached), drawn under its label. */
      readonly images?: readonly ImageValue[];
    };

export interface EventsPage {
  readonly sessionId: string;
  readonly agent: string | null;
  readonly total: number;
  readonly offset: number;
  readonly events: readonly EventDto[];
}

export interface IssueDto {
  readonly code: string;
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** Server-sent events on /api/events. */
export type LiveMessage =
  | { readonly type: 'session-updated'; readonly sessionId: string }
  | { readonly type: 'sessions-changed' }
  | { readonly type: 'index-progress'; readonly index: IndexStatus }
  | { readonly type: 'hello' };

/** `GET /api/team/people` on a team server: who pushes, from which devices (the dashboard's person filter). */
export interface TeamPeopleResponse {
  readonly people: readonly {
    readonly name: string;
    readonly devices: readonly string[];
    /** Sessions the person pushed (all devices). */
    readonly sessions: number;
  }[];
}
