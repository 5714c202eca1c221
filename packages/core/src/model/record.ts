import type { ContentBlock } from './content.js';
import type { IsoTimestamp, RecordUuid, SessionId, SubagentId } from './ids.js';
import type { SourceLocation } from './issue.js';

/** API usage of one response, as the client wrote it. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  /** The part of the cache writes with a 1-hour lifetime (`usage.cache_creation.ephemeral_1h_input_tokens`), else 0. */
  readonly cacheCreation1hInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning, when the agent reports it apart; never added on top. */
  readonly reasoningOutputTokens?: number;
  /**
   * The client wrote only the output side of the response (Copilot CLI 1.0.64 and 1.0.68): the input and cache
   * counts are unknown, not 0, so what it cost is a lower bound (`costIsLowerBound`).
   */
  readonly inputUnrecorded?: true;
  /**
   * Output tokens the record's content took at least, present only when `outputTokens` is below it: the record kept
   * the stream's first count, not the response's (usage/output-floor.ts). The response's output is then a lower
   * bound, unless another of its records has a count at least this large.
   */
  readonly outputAtLeast?: number;
  /**
   * Responses after this one whose records the client wrote into this one without their usage (Gemini CLI 0.20
   * folds a turn with tool calls and no text into the message before it): each a response of unknown input and
   * output, so that the count of responses is whole and their cost a lower bound (`dedupeResponses`).
   */
  readonly turnsUnrecorded?: number;
}

/** Fields every chain record (user/assistant/system/attachment/progress) has. */
export interface ChainEnvelope {
  readonly uuid: RecordUuid;
  readonly parentUuid: RecordUuid | null;
  readonly timestamp: IsoTimestamp | undefined;
  readonly sessionId: SessionId | undefined;
  readonly cwd: string | undefined;
  readonly version: string | undefined;
  readonly gitBranch: string | undefined;
  readonly isSidechain: boolean;
  readonly agentId: SubagentId | undefined;
  readonly loc: SourceLocation;
}

export interface UserRecord extends ChainEnvelope {
  readonly kind: 'user';
  /** A typed prompt is a string; everything else is blocks. */
  readonly content: string | readonly ContentBlock[];
  readonly isMeta: boolean;
  readonly isCompactSummary: boolean;
  /** The structured tool output; `undefined` when the record has none. */
  readonly toolUseResult: unknown;
  readonly hasToolUseResult: boolean;
  readonly sourceToolAssistantUuid: RecordUuid | undefined;
}

export interface AssistantRecord extends ChainEnvelope {
  readonly kind: 'assistant';
  /** message.id: shared by every block record of one API response. */
  readonly messageId: string | undefined;
  readonly requestId: string | undefined;
  readonly model: string | undefined;
  readonly content: readonly ContentBlock[];
  readonly usage: Usage | undefined;
  readonly stopReason: string | undefined;
  readonly isApiErrorMessage: boolean;
  readonly isSynthetic: boolean;
  /** 2.1.x: the id of the `api-request` record of the request this response answers (`requestRef`). */
  readonly requestRef?: string | undefined;
}

export interface SystemRecord extends ChainEnvelope {
  readonly kind: 'system';
  readonly subtype: string;
  readonly content: string | undefined;
  readonly level: string | undefined;
  readonly isMeta: boolean;
  readonly logicalParentUuid: RecordUuid | undefined;
  /** Subtype-specific fields (compactMetadata, durationMs, error, retryAttempt, …). */
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * An `api_error` the agent went on to retry (Claude Code's retry notices, Codex's reconnects): an attempt that
   * failed, not a request that did (`requestFailureOf`).
   */
  readonly retried?: true;
}

export interface AttachmentRecord extends ChainEnvelope {
  readonly kind: 'attachment';
  readonly attachmentType: string;
  readonly attachment: Readonly<Record<string, unknown>>;
}

export interface ProgressRecord extends ChainEnvelope {
  readonly kind: 'progress';
  readonly dataType: string;
  readonly toolUseId: string | undefined;
  readonly parentToolUseId: string | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}

interface SideBase {
  readonly sessionId: SessionId | undefined;
  readonly timestamp: IsoTimestamp | undefined;
  readonly loc: SourceLocation;
}

export interface SummaryRecord extends SideBase {
  readonly kind: 'summary';
  readonly summary: string;
  readonly leafUuid: RecordUuid | undefined;
}
export interface TitleRecord extends SideBase {
  readonly kind: 'title';
  /** `custom-title` (from /rename) or `ai-title` (generated). */
  readonly source: 'custom-title' | 'ai-title';
  readonly title: string;
}
export interface LastPromptRecord extends SideBase {
  readonly kind: 'last-prompt';
  readonly lastPrompt: string | undefined;
  readonly leafUuid: RecordUuid | undefined;
}
export interface QueueOperationRecord extends SideBase {
  readonly kind: 'queue-operation';
  readonly operation: string;
  readonly content: unknown;
}
export interface FileHistorySnapshotRecord extends SideBase {
  readonly kind: 'file-history-snapshot';
  readonly messageId: string | undefined;
  readonly isSnapshotUpdate: boolean;
  readonly trackedFiles: readonly string[];
}
export interface CostStateRecord extends SideBase {
  readonly kind: 'cost-state';
  readonly totalCostUsd: number | undefined;
  readonly totalDurationMs: number | undefined;
  readonly totalApiDurationMs: number | undefined;
  readonly totalToolDurationMs: number | undefined;
  readonly linesAdded: number | undefined;
  readonly linesRemoved: number | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}
export interface ApiRequestRecord extends SideBase {
  readonly kind: 'api-request';
  /** `api-request`, `api-request-blob`, `api-request-shape` or `api-request-resumed`. */
  readonly type: string;
  readonly id: string | undefined;
  readonly agentId: SubagentId | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}
/**
 * A known bookkeeping record without its own shape here (tag, mode, atis-latch, tools-used, relocated,
 * worktree-state, permission-mode, content-replacement, …). Kept whole.
 */
export interface MetaRecord extends SideBase {
  readonly kind: 'meta';
  readonly type: string;
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * The model the session asked for, as a settings record names it (Codex's `turn_context`): listed with the models
   * of its responses (`SessionSummary`), so a session whose every request failed still names its model.
   */
  readonly model?: string | undefined;
}
/** A record whose `type` this library does not know: kept raw, never dropped. */
export interface UnknownRecord extends SideBase {
  readonly kind: 'unknown';
  readonly type: string;
  readonly raw: unknown;
}

export type TranscriptRecord =
  | UserRecord
  | AssistantRecord
  | SystemRecord
  | AttachmentRecord
  | ProgressRecord
  | SummaryRecord
  | TitleRecord
  | LastPromptRecord
  | QueueOperationRecord
  | FileHistorySnapshotRecord
  | CostStateRecord
  | ApiRequestRecord
  | MetaRecord
  | UnknownRecord;

export type ChainRecord = UserRecord | AssistantRecord | SystemRecord | AttachmentRecord | ProgressRecord;

export function isChainRecord(record: TranscriptRecord): record is ChainRecord {
  switch (record.kind) {
    case 'user':
    case 'assistant':
    case 'system':
    case 'attachment':
    case 'progress':
      return true;
    case 'summary':
    case 'title':
    case 'last-prompt':
    case 'queue-operation':
    case 'file-history-snapshot':
    case 'cost-state':
    case 'api-request':
    case 'meta':
    case 'unknown':
      return false;
    default:
      return record satisfies never;
  }
}
