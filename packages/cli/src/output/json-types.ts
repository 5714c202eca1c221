/**
 * The `--json` output contract of every `agentdash` command. Documented in docs/cli-json.md; fields are only ever
 * added, never renamed or removed, within a major version.
 */

/** `agentdash index --json` */
export interface IndexJson {
  /** Transcript files in scope. */
  readonly files: number;
  /** Files read in this run (new or changed). */
  readonly filesParsed: number;
  /** Bytes read in this run: 0 when nothing changed. */
  readonly bytesParsed: number;
  /** Records decoded in this run. */
  readonly records: number;
  /** Stored parse issues (malformed lines etc.) of the files in scope. */
  readonly issues: number;
  readonly newIssues: number;
  readonly filesRemoved: number;
  readonly sessions: number;
  /** Files in scope gone from disk and kept from the archive (included in `files`). */
  readonly archivedFiles: number;
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
  readonly cacheReadInputTokens: number;
}

export interface SessionJson {
  /** The session id (the main file's name); two project folders can each hold a session of the same id. */
  readonly id: string;
  /** Names this session alone: its id, else `<project folder name>/<id>`, else `key`. `show` and `export` take it. */
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
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly gitBranch?: string;
  readonly files: readonly { readonly path: string; readonly role: 'main' | 'subagent'; readonly agentId?: string }[];
  readonly subagents: number;
  readonly isLive: boolean;
  /** Its files are gone from disk (Claude Code's cleanup, or deleted); it is read from the index's archive. */
  readonly archived: boolean;
  readonly issues: number;
  readonly usage: UsageJson;
  readonly usageByModel: Readonly<Record<string, UsageJson>>;
}

/** `agentdash sessions --json` */
export interface SessionsJson {
  readonly sessions: readonly SessionJson[];
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
}

export interface SearchHitJson {
  readonly sessionId: string;
  /** Names the session alone (see SessionJson.ref). */
  readonly sessionRef: string;
  readonly projectPath?: string;
  readonly sessionTitle?: string;
  readonly timestamp?: string;
  readonly kind: 'prompt' | 'assistant' | 'thinking' | 'tool-input' | 'tool-output';
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
  readonly hits: readonly SearchHitJson[];
}

/** One line of `agentdash export --format envelope` (JSON Lines): the seed-004 envelope plus the call's id and tool. */
export type EnvelopeLineJson =
  | { readonly id: string; readonly tool: string; readonly success: true; readonly data: unknown }
  | { readonly id: string; readonly tool: string; readonly success: false; readonly error: string };

/** `agentdash schema --json` (and without --json: the output is JSON anyway). */
export interface SchemaJson {
  /** JSON Schema per typed-result kind / tool. */
  readonly schemas: Readonly<Record<string, unknown>>;
}

/** `agentdash serve --json`: printed once the server listens. */
export interface ServeJson {
  readonly url: string;
}

/** Printed on stderr with --json when a command fails. */
export interface ErrorJson {
  readonly error: { readonly kind: string; readonly message: string; readonly exitCode: number };
}
