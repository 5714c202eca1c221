import type { ErrorCategory, ErrorSeverity, ParseIssueCode, ReportedTime } from '@agentdash/core';
import type { AgentKind } from './agents.js';
import { DOC_KINDS } from './schema/stored-values.js';

export type { RefreshOptions, RefreshProgress, RefreshReport } from './write/refresh-types.js';

import type { TimeInput } from './time-input.js';

export type { TimeInput } from './time-input.js';

export interface SessionFilter {
  /** Only this agent's sessions. */
  readonly agent?: AgentKind;
  /** Only sessions with a file under one of these paths (files, project folders, Claude homes). */
  readonly paths?: readonly string[];
  /** Project path or project folder name: exact, or a substring of either. */
  readonly project?: string;
  /** Sessions that were active at or after this time. */
  readonly since?: TimeInput;
  /** Sessions that started at or before this time. */
  readonly until?: TimeInput;
  /** Sessions that used this model (substring). */
  readonly model?: string;
  /** Sessions written by this client version (exact). */
  readonly version?: string;
  /** true: only sessions with at least one error; false: only those without. */
  readonly hasErrors?: boolean;
  /** true: leave out empty sessions (no message) and untitled ones without a tool call (warm-ups, stubs). */
  readonly hideEmpty?: boolean;
  /** Only sessions with these session ids (e.g. those of search hits; a session id may name several sessions). */
  readonly ids?: readonly string[];
  /** Sessions whose file tools touched this file: absolute, exactly; relative, as a path's end on whole segments. */
  readonly file?: string;
  readonly limit?: number;
}

export interface UsageSummary {
  readonly responses: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Cache writes, 5-minute and 1-hour. */
  readonly cacheCreationInputTokens: number;
  /** The part of the cache writes with a 1-hour lifetime. */
  readonly cacheCreation1hInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning (Codex reasoning, Gemini thoughts); 0 for Claude Code. */
  readonly reasoningOutputTokens: number;
}

/** A session's usage of one model on one thread kind and price tier, each API response once. */
export interface UsagePart extends UsageSummary {
  readonly model: string;
  readonly thread: 'main' | 'subagent';
  /** The request-size band of these responses' input side (core's `promptBand`: 0 up to 32k tokens … 5 above 272k). */
  readonly band: number;
  /** How many of them recorded no input (core's `Usage.inputUnrecorded`); absent when none. */
  readonly inputUnrecorded?: number;
  /** How many of them kept only the stream's first output count (core's `ResponseUsage.outputUnrecorded`). */
  readonly outputUnrecorded?: number;
}

export interface SessionSummary {
  /** The agent that wrote the session (`claude`, `codex`, `gemini`). */
  readonly agent: AgentKind;
  /** The session id (the main file's name): unique within a project folder, not always across folders. */
  readonly id: string;
  /**
   * The shortest reference that names this session alone: its id, else `<id>@<project folder name>` when another
   * project folder holds a session of the same id, else `key`. Every command and the API accept it.
   */
  readonly ref: string;
  /** The session's identity: its project folder plus its id (`<projectDir>/<id>`). */
  readonly key: string;
  readonly projectPath: string | undefined;
  readonly projectDir: string;
  readonly title: string | undefined;
  readonly titleSource: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt' | undefined;
  readonly startedAt: string | undefined;
  readonly endedAt: string | undefined;
  /**
   * Wall time: the main thread's first to last timestamp, `time.wallMs` (without a main file, its files'; undefined
   * without a span). Not `endedAt − startedAt`, which spans every file of the session, subagents' included.
   */
  readonly durationMs: number | undefined;
  /** Prompts plus assistant responses (each API response once), subagents included. */
  readonly messages: number;
  readonly prompts: number;
  /**
   * Unique tool_use ids this session owns: a call copied into a fork or resume counts once, for the session of its
   * first occurrence, so the sum over sessions equals the calls of `stats` and `analytics`.
   */
  readonly toolCalls: number;
  /** Calls whose result has `is_error: true`. */
  readonly errors: number;
  /** Errors classified as expected (part of normal work). */
  readonly expectedErrors: number;
  /** Requests the agent gave up on, attempts it retried (core's `requestFailureOf`); absent in a team's copy. */
  readonly apiErrors?: number;
  readonly apiRetries?: number;
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly gitBranch: string | undefined;
  readonly files: readonly { readonly path: string; readonly role: 'main' | 'subagent'; readonly agentId?: string }[];
  /**
   * Its subagents as `loadSession` (and `show`) finds them: subagent files, runs written inside the main file
   * (sidechains, Claude Code ≤ 2.0.27) and subagents kept only as copies in their parent's file (2.1.x `agent_progress`).
   */
  readonly subagents: number;
  /**
   * Requests the client sent only to pre-warm its subagents' prompt caches (core's `isWarmup`, Claude Code 2.0.x):
   * not among `subagents`; their usage is in `usage`. Absent where the source does not tell (a team server's
   * sessions pushed by a laptop whose header did not count them).
   */
  readonly warmups?: number;
  /**
   * Being written now: records were appended to one of its files after the index first read it (at the file's
   * modification time), or its newest record's own timestamp is, within the last 2 minutes. A freshly copied archive
   * is not live.
   */
  readonly isLive: boolean;
  /**
   * The session's main file (else its first file) is gone from disk: Claude Code cleaned it up, or it was deleted.
   * It is read from the archive kept in the database.
   */
  readonly archived: boolean;
  /** Parse issues stored for the session's files, plus pairing's (an orphan or a second result), as `show` counts. */
  readonly issues: number;
  /** Secret findings in the session's files (rules of docs/secrets.md; exports redact them). The secrets are not stored. */
  readonly secrets: number;
  /** Each API response once (by message id, request id where one id served several), subagents included. */
  readonly usage: UsageSummary;
  readonly usageByModel: Readonly<Record<string, UsageSummary>>;
  /** The part of `usage` spent by subagents. */
  readonly subagentUsage: UsageSummary;
  /**
   * Cost in USD of the priced models (see `unpricedModels`); null when the session has models and none has a price;
   * 0 when it billed no response (core's `knownCost`).
   */
  readonly costUsd: number | null;
  /** The part of `costUsd` spent by subagents. */
  readonly subagentCostUsd: number | null;
  /** Models of the session the price table does not know: their cost is unknown, not 0. */
  readonly unpricedModels: readonly string[];
  /**
   * Models some of whose responses recorded no input (Copilot CLI 1.0.64, Gemini 0.20's folded turns): `costUsd`
   * counts what was recorded, a lower bound (core's `costIsLowerBound`). Absent when there is none.
   */
  readonly inputUnrecordedModels?: readonly string[];
  /**
   * Models some of whose responses kept only the stream's first output count (Claude Code: no record has the final
   * one): their output and `costUsd` are lower bounds. Absent when there is none.
   */
  readonly outputUnrecordedModels?: readonly string[];
  /**
   * Where the main thread's time went (see core's `partitionTime`); `wallMs` null when the wall time is unknown
   * (`durationMs` absent), never 0 for it.
   */
  readonly time: ReportedTime;
}

/** Which responses the usage queries count. */
export interface UsageFilter {
  /** Only this agent's sessions. */
  readonly agent?: AgentKind;
  /** Only sessions with a file under these paths. */
  readonly paths?: readonly string[];
  /** Sessions by project path or project folder name: exact, or a substring of either. */
  readonly project?: string;
  /** Responses of models whose id contains this. */
  readonly model?: string;
  readonly sessionId?: string;
  /** Responses at or after this time. */
  readonly since?: TimeInput;
  /** Responses at or before this time. */
  readonly until?: TimeInput;
}

export interface DurationStats {
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
}

export interface ToolStat {
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** errors / calls (0 when there are no calls). */
  readonly errorRate: number;
  readonly durationMs: DurationStats;
  readonly categories: Readonly<Record<string, number>>;
  /** Canonical tool name (Task → Agent, …). */
  readonly canonicalName: string;
  /** Calls that have a result. */
  readonly paired: number;
}

export interface ToolStats {
  /** The sessions in scope that the sessions list shows: not the empty and warm-up ones it hides (`hideEmpty`). */
  readonly sessions: number;
  /** Calls: a tool_use id counts once per agent home (a fork or resume copy in the same home adds none). */
  readonly calls: number;
  /** Calls that have a result. */
  readonly paired: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** Per tool, keyed by the tool name as written in the transcript. */
  readonly tools: Readonly<Record<string, ToolStat>>;
  /** Per canonical tool (`Task` counts as `Agent`), with the names as written: how the CLI and the dashboard show them. */
  readonly byCanonical: Readonly<Record<string, CanonicalToolStat>>;
}

export interface CanonicalToolStat extends ToolStat {
  /** The names as written in the transcripts (`Agent`, `Task`). */
  readonly names: readonly string[];
}

export type CallRowStatus = 'ok' | 'error' | 'pending' | 'unanswered';

export interface CallFilter {
  /** Only calls of this agent's sessions. */
  readonly agent?: AgentKind;
  readonly paths?: readonly string[];
  /** Tool name as written, or canonical name. */
  readonly tool?: string;
  readonly status?: CallRowStatus;
  readonly category?: ErrorCategory | string;
  readonly severity?: ErrorSeverity;
  readonly project?: string;
  readonly sessionId?: string;
  readonly since?: TimeInput;
  readonly until?: TimeInput;
  /** In time order (a session's calls); the latest first otherwise (a drill-down's). */
  readonly oldestFirst?: boolean;
  readonly limit?: number;
}

export interface CallRow {
  /** The session's id (see `SessionSummary.id`). */
  readonly sessionId: string;
  /** A reference that names the session alone (see `SessionSummary.ref`). */
  readonly sessionRef: string;
  readonly callId: string;
  /** Tool name as written. */
  readonly tool: string;
  readonly canonicalTool: string;
  readonly timestamp: string | undefined;
  readonly status: CallRowStatus;
  readonly category: string | undefined;
  readonly severity: ErrorSeverity | undefined;
  readonly errorMessage: string | undefined;
  readonly exitCode: number | undefined;
  readonly durationMs: number | undefined;
  /** One-line summary, e.g. `Edit src/a.ts +3 −1`. */
  readonly summary: string;
  readonly agentId: string | undefined;
  readonly projectPath: string | undefined;
  readonly file: string;
  readonly line: number;
}

export type {
  AnalyticsBucket,
  AnalyticsCategory,
  AnalyticsFilter,
  AnalyticsProject,
  AnalyticsTool,
  CallAnalytics,
  CallCounts,
} from './analytics-types.js';

export const searchKinds = DOC_KINDS;
export type SearchKind = (typeof searchKinds)[number];

export interface SearchFilter {
  /** Only this agent's sessions. */
  readonly agent?: AgentKind;
  readonly paths?: readonly string[];
  readonly project?: string;
  readonly tool?: string;
  readonly sessionId?: string;
  readonly kind?: SearchKind;
  readonly since?: TimeInput;
  /** Hits to return (default 50); with `onePerSession`, sessions. */
  readonly limit?: number;
  /** Only each session's best hit (as a list of matching sessions shows them). */
  readonly onePerSession?: boolean;
}

/** Snippet markers: the matched text is between these. */
export const HIGHLIGHT_START = '\u0001';
export const HIGHLIGHT_END = '\u0002';

export interface SearchHit {
  /** The session's id (see `SessionSummary.id`). */
  readonly sessionId: string;
  /** A reference that names the session alone (see `SessionSummary.ref`). */
  readonly sessionRef: string;
  readonly projectPath: string | undefined;
  readonly sessionTitle: string | undefined;
  readonly timestamp: string | undefined;
  readonly kind: SearchKind;
  readonly tool: string | undefined;
  readonly callId: string | undefined;
  readonly agentId: string | undefined;
  /** Text around the match; matches are wrapped in HIGHLIGHT_START … HIGHLIGHT_END. */
  readonly snippet: string;
  readonly file: string;
  readonly line: number;
  /** bm25 rank: lower is better. */
  readonly rank: number;
}

export interface StoredIssue {
  readonly code: ParseIssueCode | string;
  readonly file: string;
  readonly line: number;
  readonly message: string;
  /** The session's id (see `SessionSummary.id`). */
  readonly sessionId: string;
  /** A reference that names the session alone (see `SessionSummary.ref`). */
  readonly sessionRef: string;
}
