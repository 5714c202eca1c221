/**
 * The `--json` output contract of every `agentdash` command. Documented in docs/cli-json.md; fields are only ever
 * added, never renamed or removed, within a major version.
 */

import type { AgentId } from '@agentdash/core/base';
import type { RefreshReport, SearchKind, TelemetryJoins } from '@agentdash/index';
import type { TelemetrySummaryDto, TimeSumDto, UsageTotalsDto } from '@agentdash/server';

export type * from './team-json.js';

/** `agentdash index --json`: the refresh's counts (`RefreshReport`, documented there), then the database and archive. */
export interface IndexJson
  extends Pick<
    RefreshReport,
    | 'files'
    | 'filesParsed'
    | 'bytesParsed'
    | 'records'
    | 'issues'
    | 'newIssues'
    | 'filesRemoved'
    | 'sessions'
    | 'archivedFiles'
  > {
  /** The index database file. */
  readonly db: string;
  /** The archive: whether this run kept new bytes, and what it holds (transcript bytes and stored bytes). */
  readonly archive: {
    readonly enabled: boolean;
    readonly files: number;
    readonly bytes: number;
    readonly storedBytes: number;
  };
  /** Claude Code's cleanup of old transcripts, from its settings.json (read only). */
  readonly claudeCleanup: {
    readonly settingsPath: string;
    readonly cleanupPeriodDays?: number;
    readonly effectiveDays: number;
    readonly active: boolean;
  };
}

/** `agentdash archive --json` (status, on, off) */
export interface ArchiveJson {
  readonly enabled: boolean;
  readonly files: number;
  readonly bytes: number;
  readonly storedBytes: number;
  /** Files held at their last complete version, whose newer copy (it lost records) is kept beside it. */
  readonly versions: number;
  readonly db: string;
}

/** `agentdash archive forget SESSION --json` */
export interface ArchiveForgetJson {
  readonly session: string;
  readonly files: number;
  readonly bytes: number;
  readonly filesRemoved: number;
  /** Whether the session is still listed (its files are on disk). */
  readonly stillIndexed: boolean;
}

export interface UsageJson {
  readonly responses: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  /** The part of the cache writes with a 1-hour lifetime. */
  readonly cacheCreation1hInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning (Codex reasoning, Gemini thoughts); 0 for Claude Code. */
  readonly reasoningOutputTokens: number;
}

/**
 * Where a session's main-thread time went; the four parts sum to `wallMs` (docs/usage.md): the API's `TimeDto` whose
 * wall time is known (a session whose wall time is unknown has `time: null` here).
 */
export type SessionTimeJson = TimeSumDto;

export interface SessionJson {
  /** The session id (the main file's name); two project folders can each hold a session of the same id. */
  readonly id: string;
  /** The agent that wrote the session: an id of the agent registry (`agentIds`: `claude`, `codex`, `gemini`, …). */
  readonly agent: AgentId;
  /** Names this session alone: its id, else `<id>@<project folder name>`, else `key`. `show` and `export` take it. */
  readonly ref: string;
  /** The session's identity: `<projectDir>/<id>`. */
  readonly key: string;
  readonly projectPath?: string;
  readonly projectDir: string;
  readonly title?: string;
  readonly titleSource?: 'custom-title' | 'ai-title' | 'summary' | 'first-prompt';
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly durationMs?: number;
  readonly messages: number;
  readonly prompts: number;
  readonly toolCalls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** Requests to the model the agent gave up on (an API error ended the turn): not among `errors`. */
  readonly apiErrors?: number;
  /** Failed attempts the agent retried. */
  readonly apiRetries?: number;
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly gitBranch?: string;
  readonly files: readonly { readonly path: string; readonly role: 'main' | 'subagent'; readonly agentId?: string }[];
  /** Subagents as `show` lists them: files, runs inside the main file, subagents kept as copies in their parent's. */
  readonly subagents: number;
  /** Requests the client sent only to warm its subagents' prompt caches (2.0.x): not subagents, billed in `usage`. */
  readonly warmups?: number;
  readonly isLive: boolean;
  /** Its files are gone from disk (Claude Code's cleanup, or deleted); it is read from the index's archive. */
  readonly archived: boolean;
  readonly issues: number;
  /** Secret findings in the session's files, counted at index time (docs/secrets.md); the secrets are not stored. */
  readonly secrets: number;
  readonly usage: UsageJson;
  readonly usageByModel: Readonly<Record<string, UsageJson>>;
  /** The part of `usage` spent by subagents. */
  readonly subagentUsage: UsageJson;
  /**
   * USD for the priced models; null when the session has models and none has a price (never 0 for an unknown price);
   * 0 when no response was billed.
   */
  readonly costUsd: number | null;
  readonly subagentCostUsd: number | null;
  /** Models without a price: the session costs more than `costUsd`. */
  readonly unpricedModels: readonly string[];
  /** Models some of whose responses recorded no input (Copilot 1.0.64, Gemini 0.20): it costs more than `costUsd`. */
  readonly inputUnrecordedModels?: readonly string[];
  /** Models some of whose responses kept only the stream's first output count (Claude Code): output and cost are more. */
  readonly outputUnrecordedModels?: readonly string[];
  /** Where its main thread's time went; null when its wall time is unknown (`durationMs` absent), not every part 0. */
  readonly time: SessionTimeJson | null;
  readonly measured?: import('./telemetry-json.js').MeasuredSessionJson;
}

/** `agentdash show SESSION --files --json`: the files its file tools touched (core's `fileActivityOf`). */
export interface ShowFilesJson {
  readonly sessionId: string;
  readonly projectPath: string | null;
  readonly files: readonly import('@agentdash/core/present').FileActivity[];
}

/** `agentdash sessions --json` */
export interface SessionsJson {
  /** Read from the bundled sample sessions, for want of an agent home on this machine (every command's document). */
  readonly samples?: true;
  readonly sessions: readonly SessionJson[];
  /** More sessions match than `sessions` holds (`--limit` left them out). */
  readonly truncated: boolean;
}

export interface ToolStatJson {
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  readonly errorRate: number;
  /** Nearest-rank percentiles of the call→result time; null when no call of the tool has a duration. */
  readonly durationMs: { readonly p50: number | null; readonly p95: number | null; readonly max: number | null };
  readonly categories: Readonly<Record<string, number>>;
  readonly canonicalName: string;
  readonly paired: number;
}

/** `agentdash stats --json`: calls are unique tool_use ids; an error is a result with `is_error: true`. */
export interface StatsJson {
  readonly sessions: number;
  readonly calls: number;
  readonly paired: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** Keyed by the tool name as written in the transcript. */
  readonly tools: Readonly<Record<string, ToolStatJson>>;
  /** Keyed by canonical tool name (`Task` counts as `Agent`), with the names as written: what the table shows. */
  readonly byCanonical: Readonly<Record<string, ToolStatJson & { readonly names: readonly string[] }>>;
  readonly measured?: import('./telemetry-json.js').MeasuredStatsJson;
}

export interface SearchHitJson {
  readonly sessionId: string;
  /** Names the session alone (see SessionJson.ref). */
  readonly sessionRef: string;
  readonly projectPath?: string;
  readonly sessionTitle?: string;
  readonly timestamp?: string;
  readonly kind: SearchKind;
  readonly tool?: string;
  readonly callId?: string;
  readonly agentId?: string;
  /** Matches are wrapped in U+0001 … U+0002. */
  readonly snippet: string;
  readonly file: string;
  readonly line: number;
  /** bm25: lower is better; hits are sorted by it. */
  readonly rank: number;
}

/** `agentdash search --json` */
export interface SearchJson {
  readonly query: string;
  /** At most `--limit` (default 50), best first. */
  readonly hits: readonly SearchHitJson[];
  /** Whether more hits match than `hits` holds (a larger `--limit` shows them). */
  readonly truncated: boolean;
}

/** One line of `agentdash export --format envelope` (JSON Lines): the seed-004 envelope plus the call's id and tool. */
export type EnvelopeLineJson =
  | { readonly id: string; readonly tool: string; readonly success: true; readonly data: unknown }
  | { readonly id: string; readonly tool: string; readonly success: false; readonly error: string };

/** `agentdash export SESSION --format F -o FILE --json`: what was written where (the export itself is in FILE). */
export interface ExportJson {
  readonly output: string;
  readonly format: 'json' | 'envelope' | 'markdown' | 'html';
}

/** `agentdash schema --json` (and without --json: the output is JSON anyway). */
export interface SchemaJson {
  /** JSON Schema per typed-result kind / tool. */
  readonly schemas: Readonly<Record<string, unknown>>;
}

/** `agentdash serve --json`: printed once the server listens. */
export interface ServeJson {
  readonly url: string;
  /** The OTLP/HTTP receiver's endpoint, or null when it is not listening (port in use, --otlp-port off). */
  readonly otlpEndpoint?: string | null;
}

/** `otel setup --json`: the environment Claude Code needs to send its telemetry here. */
export interface OtelSetupJson {
  readonly env: Readonly<Record<string, string>>;
  /** The `[otel]` lines for Codex CLI's config file. */
  readonly codex: { readonly file: string; readonly toml: string };
  /** The `telemetry` object for Gemini CLI's settings file. */
  readonly gemini: {
    readonly file: string;
    readonly settings: { readonly telemetry: Readonly<Record<string, string | boolean>> };
  };
}

/** `otel status --json`: what telemetry the index holds and how it joins the transcripts. */
export interface OtelStatusJson {
  readonly events: number;
  readonly spans: number;
  readonly metrics: number;
  readonly unknown: number;
  /** How much of the telemetry and of the transcripts meet (the index's `TelemetryJoins`). */
  readonly joins: TelemetryJoins;
  /** Sessions known only from telemetry: these fields of the API's `TelemetrySummaryDto`. */
  readonly telemetryOnlySessions: readonly Pick<
    TelemetrySummaryDto,
    'sessionId' | 'client' | 'firstMs' | 'lastMs' | 'apiRequests' | 'toolCalls' | 'costUsd'
  >[];
}

/**
 * Tokens and cost of a set of API responses (each counted once), as the API's `UsageTotalsDto`. `costUsd` is null
 * when the price is unknown.
 */
export type UsageTotalsJson = UsageTotalsDto;

/** One period (or session, or block) of a usage report: per model, and its cost. */
export interface UsageEntryJson {
  readonly models: Readonly<Record<string, UsageTotalsJson>>;
  /** The priced models' cost; null when none of its models has a price. */
  readonly costUsd: number | null;
  /** Models some of whose responses recorded no input: it costs more than `costUsd`. Absent when none. */
  readonly inputUnrecordedModels?: readonly string[];
  /** Models some of whose responses kept only the stream's first output count: it costs more. Absent when none. */
  readonly outputUnrecordedModels?: readonly string[];
}

/** Extra fields every usage report carries. */
export interface UsageReportJson {
  readonly totals: UsageTotalsJson;
  /** Models without a price in the table: their cost is unknown (and left out of the sums). */
  readonly unpricedModels: readonly string[];
  /** Models some of whose responses recorded no input: their cost is that of what was recorded. Absent when none. */
  readonly inputUnrecordedModels?: readonly string[];
  /** Models some of whose responses recorded no final output count: their output and cost are more. */
  readonly outputUnrecordedModels?: readonly string[];
  /** The price table used. */
  readonly prices: { readonly date: string; readonly source: string };
}

/** A period report's: the responses written without a time, which no period holds (the totals count them). */
interface UndatedJson {
  /** Absent when none. */
  readonly undated?: UsageEntryJson;
}

/** `agentdash usage daily --json` (dates in the local time zone, `TZ` honoured). */
export interface UsageDailyJson extends UsageReportJson, UndatedJson {
  readonly daily: readonly (UsageEntryJson & { readonly date: string })[];
}
/** `agentdash usage weekly --json`: `week` is the date of the week's Monday. */
export interface UsageWeeklyJson extends UsageReportJson, UndatedJson {
  readonly weekly: readonly (UsageEntryJson & { readonly week: string })[];
}
/** `agentdash usage monthly --json`: `month` is `YYYY-MM`. */
export interface UsageMonthlyJson extends UsageReportJson, UndatedJson {
  readonly monthly: readonly (UsageEntryJson & { readonly month: string })[];
}
/** `agentdash usage session --json`: each response counted once, in the session that first holds it. */
export interface UsageSessionJson extends UsageReportJson {
  readonly sessions: readonly (UsageEntryJson & {
    readonly sessionId: string;
    /** The reference that names the session alone, when its id does not (another project folder has that id). */
    readonly ref?: string;
    readonly project: string;
    readonly title?: string;
    readonly firstAt?: string;
    readonly lastAt?: string;
    /** The part spent by subagents. */
    readonly subagents: UsageTotalsJson;
  })[];
}
/** `agentdash usage project --json`: per project path (else project folder), most expensive first. */
export interface UsageProjectJson extends UsageReportJson {
  readonly projects: readonly (UsageEntryJson & { readonly project: string })[];
}
/** `agentdash usage blocks --json`: 5-hour billing blocks, oldest first. */
export interface UsageBlocksJson extends UsageReportJson {
  readonly blocks: readonly (UsageEntryJson & {
    readonly start: string;
    readonly end: string;
    readonly lastAt: string;
    readonly isActive: boolean;
    /** Time left in the active block, else 0. */
    readonly remainingMs: number;
    readonly tokens: UsageTotalsJson;
    /** Active block only. */
    readonly burnRate?: { readonly costUsdPerHour: number | null; readonly tokensPerMinute: number };
    readonly projectedCostUsd?: number | null;
  })[];
}

/** `agentdash statusline --json` */
export interface StatuslineJson {
  readonly sessionId?: string;
  readonly sessionCostUsd: number | null;
  readonly sessionTokens: number;
  readonly todayCostUsd: number | null;
  /** The active 5-hour block, if any. */
  readonly block?: { readonly costUsd: number | null; readonly remainingMs: number; readonly end: string };
  readonly line: string;
}

/** Printed on stderr with --json when a command fails. */
export interface ErrorJson {
  readonly error: {
    readonly kind: string;
    readonly message: string;
    readonly exitCode: number;
    /** kind `ambiguous-session`: references of the sessions SESSION matched, each naming one alone (at most 20). */
    readonly candidates?: readonly string[];
  };
}

/** `agentdash secrets --json`: where secrets are; the secrets themselves are never output. */
export interface SecretsJson {
  readonly rules: readonly { readonly id: string; readonly title: string }[];
  /** Findings over all sessions. */
  readonly total: number;
  /** Sessions with at least one finding. */
  readonly sessions: readonly {
    readonly sessionId: string;
    readonly sessionRef: string;
    readonly title: string | null;
    readonly findings: readonly { readonly file: string; readonly line: number; readonly rule: string }[];
  }[];
  /** The sessions scanned: those the filters choose (with `--limit N`, the N newest). */
  readonly scanned: number;
  /** More sessions match than were scanned (`--limit` left them out): their secrets are not counted. */
  readonly truncated: boolean;
}
