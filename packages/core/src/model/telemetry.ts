/**
 * What an agent's own telemetry (OpenTelemetry) measured of a session: the index's answers (telemetry/queries.ts)
 * and the API's DTOs (`@agentdash/api`) are these types, not copies of them.
 */

/** One session as its telemetry tells it: the client's own measurements. */
export interface SessionTelemetry {
  readonly sessionId: string;
  /** The agent that exported it, by its `service.name`: `Claude Code`, `Codex CLI`, `Gemini CLI`. */
  readonly client: string;
  /** Its first and last record's time; null when none of its records carried one (never 0, which is 1970). */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  readonly prompts: number;
  readonly apiRequests: number;
  readonly apiErrors: number;
  /** Sum of the client's `api_request` `duration_ms`: the measured model time. */
  readonly modelMs: number;
  readonly toolCalls: number;
  readonly failedToolCalls: number;
  /** Sum of the client's `tool_result` `duration_ms`: the measured tool time. */
  readonly toolMs: number;
  /** Sum of `claude_code.tool.blocked_on_user` spans: time the client waited for a permission answer. */
  readonly permissionWaitMs: number;
  /** Sum of the client's own `cost_usd`. */
  readonly costUsd: number;
  /** Whether the client exported a cost at all (Codex CLI and Gemini CLI do not: `costUsd` is then 0). */
  readonly costReported: boolean;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheCreationTokens: number;
  /** Tool names with their call counts, most used first. */
  readonly tools: readonly { readonly name: string; readonly calls: number; readonly failed: number }[];
  /** Whether a transcript of this session is in the index. */
  readonly hasTranscript: boolean;
}

/** The client's measurement of one tool call (`tool_result` event, and the permission wait of its tool span). */
export interface MeasuredCall {
  readonly durationMs: number;
  readonly success: boolean | null;
  readonly permissionWaitMs: number;
}

/** The client's measurement of one API request (`api_request` event). */
export interface MeasuredRequest {
  readonly durationMs: number;
  readonly ttftMs: number | null;
  readonly costUsd: number | null;
}
