/**
 * The telemetry API's answers (`/api/telemetry/*`), as the dashboard reads them: browser-safe types only. What the
 * index answers as it is (`SessionTelemetry`, `MeasuredCall`, `MeasuredRequest`) is core's model, not a copy.
 */
import type { MeasuredCall, MeasuredRequest, SessionTelemetry } from '@agentdash/core/model';
import type { CostGaps } from '@agentdash/core/present';

/** One figure, and where it comes from: the client's own measurement, or AgentDash's inference from timestamps. */
export interface TimeFigure {
  readonly ms: number;
  readonly source: 'measured' | 'inferred';
}

/** One session as its telemetry tells it: the client's own measurements (the index's answer as it is). */
export type TelemetrySummaryDto = SessionTelemetry;

/** The client's measurement of one tool call. */
export type MeasuredCallDto = MeasuredCall;

/** The client's measurement of one API request. */
export type MeasuredRequestDto = MeasuredRequest;

/** `GET /api/telemetry/sessions/:id`: measured time and the client's cost beside what AgentDash infers. */
export interface SessionTelemetryDto {
  readonly sessionId: string;
  /** Whether a transcript of the session is indexed (false: known only from telemetry). */
  readonly hasTranscript: boolean;
  /**
   * Model and tool time: the sums of the client's `api_request` and `tool_result` durations when telemetry has
   * them (the whole session, subagents included), else the transcript's partition (main thread).
   */
  readonly modelTime: TimeFigure;
  readonly toolTime: TimeFigure;
  /** Waits for a permission answer (`blocked_on_user` spans); null without telemetry spans. */
  readonly permissionWaitMs: number | null;
  /** What the transcript's timestamps give (core's `partitionTime`), for comparison; null without a transcript. */
  readonly inferred: { readonly modelMs: number; readonly toolMs: number } | null;
  readonly cost: {
    /** The client's own `cost_usd`, summed. */
    readonly clientUsd: number;
    /** AgentDash's, from the transcript's tokens and its price table; null when unknown. */
    readonly computedUsd: number | null;
    /**
     * (client − computed) / computed; null when there is no computed cost, or when it leaves out a model without a
     * price (a difference then says only that the price table lacks it).
     */
    readonly difference: number | null;
    /** The difference is over 1 %. */
    readonly flagged: boolean;
    /** What the computed cost leaves out (`formatCost(computedUsd, gaps)` marks a lower bound); lists absent: none. */
    readonly gaps: CostGaps;
  };
  readonly telemetry: TelemetrySummaryDto;
  /** Per call id: the client's measured run (`tool_result`), success, and permission wait; for the timeline. */
  readonly calls: Readonly<Record<string, MeasuredCallDto>>;
  /** Per request id: the client's measured request (`api_request`): duration, time to first token, cost. */
  readonly requests: Readonly<Record<string, MeasuredRequestDto>>;
}

/**
 * Over the sessions in scope that have telemetry: model and tool time as the client measured them, beside what the
 * transcripts' timestamps give for the same sessions (`GET /api/usage` → `time.measured`, `sessions --json`).
 */
export interface MeasuredTimeDto {
  readonly sessions: number;
  readonly apiRequests: number;
  readonly toolCalls: number;
  readonly modelMs: number;
  readonly toolMs: number;
  /** The same sessions' inferred (main-thread partition) model and tool time. */
  readonly inferredModelMs: number;
  readonly inferredToolMs: number;
}

/** Tool runs as the client measured them: how many, how many failed, the client's duration percentiles. */
export interface MeasuredToolStatDto {
  readonly calls: number;
  readonly failed: number;
  readonly durationMs: { readonly p50: number | null; readonly p95: number | null; readonly max: number | null };
}

/** `GET /api/stats` → `measured`: the tool runs of the sessions in scope that telemetry measured. */
export interface MeasuredToolStatsDto extends MeasuredToolStatDto {
  readonly sessions: number;
  /** Per tool name as the client reports it, most called first. */
  readonly byTool: Readonly<Record<string, MeasuredToolStatDto>>;
}

/** `GET /api/telemetry/measured/:id`: the same as `/sessions/:id`, or null when the session has no telemetry. */
export interface MeasuredResponse {
  readonly telemetry: SessionTelemetryDto | null;
}

/**
 * `GET /api/telemetry/sessions`: the sessions known only from telemetry (no transcript indexed), newest first by
 * `firstMs`; those whose records carry no time (`firstMs` null) last, as the sessions list puts an unknown start.
 */
export interface TelemetrySessionsResponse {
  readonly sessions: readonly TelemetrySummaryDto[];
}

/** `GET /api/telemetry/ids`: every session telemetry names (the list marks them "measured"). */
export interface TelemetryIdsResponse {
  readonly sessionIds: readonly string[];
}

/** One prompt, API request, API error or tool result of a session, as its telemetry tells it. */
export interface TelemetryStepDto {
  readonly kind: 'prompt' | 'request' | 'error' | 'tool';
  /** When the client recorded it; 0 when its record carried no time (shown as unknown, never as 1970). */
  readonly timeMs: number;
  readonly promptId: string;
  /** `tool`: the tool's name; `request`/`error`: the model. */
  readonly name: string;
  /** `tool`: the call's id; `request`/`error`: the request id. */
  readonly id: string;
  readonly durationMs: number | null;
  readonly ttftMs: number | null;
  readonly success: boolean | null;
  readonly costUsd: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** A tool's input (clipped) or an error's message, when exported. */
  readonly detail: string;
}

/** `GET /api/telemetry/sessions/:id/steps`: the session's calls from telemetry, in time order. */
export interface TelemetryStepsResponse {
  readonly sessionId: string;
  readonly steps: readonly TelemetryStepDto[];
  /** More steps exist than were sent. */
  readonly truncated: boolean;
}

/** `GET /api/telemetry/setup`: where `serve` receives telemetry, and the `env` lines for `~/.claude/settings.json`. */
export interface TelemetrySetupResponse {
  /** The receiver is listening (else `reason` says why not, and `endpoint` is the default one). */
  readonly listening: boolean;
  readonly endpoint: string;
  readonly reason: string | null;
  /**
   * The `Authorization` header the receiver wants, with a placeholder for the token (a team server's
   * `Bearer <device token>`), or null (the laptop's receiver takes no token). The lines below carry it.
   */
  readonly authorization: string | null;
  /** The same lines `agentdash otel setup` prints. */
  readonly env: Readonly<Record<string, string>>;
  /** Codex CLI's `[otel]` lines for `~/.codex/config.toml` (`otel setup --agent codex`). */
  readonly codexToml: string;
  /** Gemini CLI's `telemetry` for `~/.gemini/settings.json` (`otel setup --agent gemini`). */
  readonly geminiSettings: { readonly telemetry: Readonly<Record<string, string | boolean>> };
}
