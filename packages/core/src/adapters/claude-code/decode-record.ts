import { messageOf } from '../../errors.js';
import { bool, isRecord, num, str } from '../../internal/guards.js';
import { capDepth, tooDeepMessage } from '../../internal/json-depth.js';
import type { ContentBlock } from '../../model/content.js';
import {
  createIsoTimestamp,
  createRecordUuid,
  createSessionId,
  createSubagentId,
  createToolUseId,
  type RecordUuid,
} from '../../model/ids.js';
import type { Decoded, ParseIssue, SourceLocation } from '../../model/issue.js';
import type { ChainEnvelope, TranscriptRecord, Usage } from '../../model/record.js';
import { outputFloorOf } from '../../usage/output-floor.js';
import { tokensFromRawUsage } from '../../usage/tokens.js';
import { apiErrorText } from './api-error-text.js';
import { decodeContentBlock } from './decode-content.js';

/** Side-record types we know and keep whole as `meta` records (FORMAT.md §2.3). */
export const knownMetaRecordTypes: ReadonlySet<string> = new Set([
  'tag',
  'mode',
  'atis-latch',
  'tools-used',
  'relocated',
  'worktree-state',
  'permission-mode',
  'content-replacement',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'agent-color',
  'agent-name',
  'agent-setting',
  'pr-link',
  'speculation-accept',
  'memory-mode',
  'dev-mods',
  'continued-in',
  'fork-context-ref',
  'observer-ref',
  'frame-link',
  'ended-by-model',
  'bridge-session',
  'history-suppression',
  'isolation-latch',
  'session-owner',
  'hybrid-organization',
  'derived-from',
  'data-flow-records',
  'data-flow-incomplete',
  'artifact-comment-monitor',
  'artifact-autoreact-ledger',
  'repl-mode',
  'attribution-snapshot',
  'file-history-delta',
  'checkpoint',
  'bookmark',
]);

/**
 * Decode one JSONL line into a typed record. Never throws: bad JSON or a non-object is an issue;
 * an unknown `type` is an `unknown` record that keeps the raw value.
 */
export function decodeLine(text: string, loc: SourceLocation): Decoded<TranscriptRecord> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const reason = messageOf(error);
    return {
      ok: false,
      issue: { code: 'invalid_json', file: loc.file, line: loc.line, message: `invalid JSON: ${reason}` },
    };
  }
  return decodeRecord(raw, loc);
}

/**
 * Decode one parsed JSON value into a typed record. Never throws. A part nested deeper than `MAX_JSON_DEPTH` levels
 * is replaced, in place, by its clipped JSON text and reported as a `too_deep` issue beside the record.
 */
export function decodeRecord(raw: unknown, loc: SourceLocation): Decoded<TranscriptRecord> {
  const capped = capDepth(raw);
  const decoded = decodeShallowRecord(capped.value, loc);
  if (capped.replaced === 0 || !decoded.ok) return decoded;
  const issue: ParseIssue = {
    code: 'too_deep',
    file: loc.file,
    line: loc.line,
    message: tooDeepMessage(capped.replaced),
  };
  return { ...decoded, issues: [issue] };
}

function decodeShallowRecord(raw: unknown, loc: SourceLocation): Decoded<TranscriptRecord> {
  if (!isRecord(raw)) {
    return {
      ok: false,
      issue: { code: 'not_an_object', file: loc.file, line: loc.line, message: 'line is JSON but not an object' },
    };
  }
  const type = str(raw.type);
  const side = {
    sessionId: optSession(raw.sessionId),
    timestamp: optTimestamp(raw.timestamp),
    loc,
  };
  switch (type) {
    case 'user':
    case 'assistant':
    case 'system':
    case 'attachment':
    case 'progress':
      return decodeChain(type, raw, loc);
    case 'summary':
      return ok({ kind: 'summary', ...side, summary: str(raw.summary) ?? '', leafUuid: optUuid(raw.leafUuid) });
    case 'custom-title':
      return ok({ kind: 'title', ...side, source: 'custom-title', title: str(raw.customTitle) ?? '' });
    case 'ai-title':
      return ok({ kind: 'title', ...side, source: 'ai-title', title: str(raw.aiTitle) ?? '' });
    case 'last-prompt':
      return ok({ kind: 'last-prompt', ...side, lastPrompt: str(raw.lastPrompt), leafUuid: optUuid(raw.leafUuid) });
    case 'queue-operation':
      return ok({ kind: 'queue-operation', ...side, operation: str(raw.operation) ?? '', content: raw.content });
    case 'file-history-snapshot': {
      const snapshot = isRecord(raw.snapshot) ? raw.snapshot : {};
      const tracked = isRecord(snapshot.trackedFileBackups) ? Object.keys(snapshot.trackedFileBackups) : [];
      return ok({
        kind: 'file-history-snapshot',
        ...side,
        timestamp: side.timestamp ?? optTimestamp(snapshot.timestamp),
        messageId: str(raw.messageId),
        isSnapshotUpdate: raw.isSnapshotUpdate === true,
        trackedFiles: tracked,
      });
    }
    case 'cost-state':
      return ok({
        kind: 'cost-state',
        ...side,
        totalCostUsd: num(raw.totalCostUSD),
        totalDurationMs: num(raw.totalDuration),
        totalApiDurationMs: num(raw.totalAPIDuration),
        totalToolDurationMs: num(raw.totalToolDuration),
        linesAdded: num(raw.totalLinesAdded),
        linesRemoved: num(raw.totalLinesRemoved),
        data: raw,
      });
    case 'api-request':
    case 'api-request-blob':
    case 'api-request-shape':
    case 'api-request-resumed':
      return ok({
        kind: 'api-request',
        ...side,
        type,
        id: str(raw.id),
        agentId: optAgent(raw.agentId),
        data: raw,
      });
    default:
      if (type !== undefined && knownMetaRecordTypes.has(type)) {
        return ok({ kind: 'meta', ...side, type, data: raw });
      }
      return ok({ kind: 'unknown', ...side, type: type ?? '(no type)', raw });
  }
}

function decodeChain(
  type: 'user' | 'assistant' | 'system' | 'attachment' | 'progress',
  raw: Record<string, unknown>,
  loc: SourceLocation,
): Decoded<TranscriptRecord> {
  // Hand-made stubs and stitched lines have no uuid: keep them (with their calls and usage), placed by file order.
  const uuid = str(raw.uuid) ?? syntheticUuid(loc);
  const envelope: ChainEnvelope = {
    uuid: createRecordUuid(uuid),
    parentUuid: optUuid(raw.parentUuid) ?? null,
    timestamp: optTimestamp(raw.timestamp),
    sessionId: optSession(raw.sessionId),
    cwd: str(raw.cwd),
    version: str(raw.version),
    gitBranch: str(raw.gitBranch),
    isSidechain: raw.isSidechain === true,
    agentId: optAgent(raw.agentId),
    loc,
  };
  const message = isRecord(raw.message) ? raw.message : {};
  switch (type) {
    case 'user': {
      const content = message.content;
      if (typeof content !== 'string' && !Array.isArray(content)) {
        // No prompt and no result to read (a message that is a string, a misspelt `content`): an empty prompt lost
        // it without a word. Kept whole, shown and reported as a record of its own.
        return ok({ ...unknownOf(envelope), type: 'user without message content', raw });
      }
      return ok({
        kind: 'user',
        ...envelope,
        // a bare string among the blocks is text (hand-made and stitched lines write them so)
        content:
          typeof content === 'string'
            ? content
            : content.map((block) =>
                typeof block === 'string' ? { kind: 'text', text: block } : decodeContentBlock(block),
              ),
        isMeta: raw.isMeta === true,
        isCompactSummary: raw.isCompactSummary === true,
        toolUseResult: raw.toolUseResult ?? undefined,
        hasToolUseResult: raw.toolUseResult !== undefined && raw.toolUseResult !== null,
        sourceToolAssistantUuid: optUuid(raw.sourceToolAssistantUUID),
      });
    }
    case 'assistant': {
      if (!isRecord(raw.message) || (typeof message.content !== 'string' && !Array.isArray(message.content))) {
        // No response to read (a message that is a string, a content of null or a number): counted as an empty
        // response it was lost without a word. Kept whole, shown and reported, as a user record's is.
        return ok({ ...unknownOf(envelope), type: 'assistant without message content', raw });
      }
      // a string content (hand-made and stitched transcripts) is one text block
      const content = Array.isArray(message.content)
        ? withToolUseIds(message.content.map(decodeContentBlock), uuid)
        : typeof message.content === 'string' && message.content !== ''
          ? [{ kind: 'text' as const, text: message.content }]
          : [];
      const model = str(message.model);
      const usage = decodeUsage(message.usage);
      // Synthetic messages are no response: their zero usage is no count kept from a stream.
      const floor = usage && model !== '<synthetic>' ? outputFloorOf(content, usage.outputTokens) : undefined;
      return ok({
        kind: 'assistant',
        ...envelope,
        messageId: str(message.id),
        requestId: str(raw.requestId),
        model,
        content,
        usage: floor === undefined || usage === undefined ? usage : { ...usage, outputAtLeast: floor },
        stopReason: str(message.stop_reason),
        isApiErrorMessage: raw.isApiErrorMessage === true,
        isSynthetic: model === '<synthetic>',
        ...(typeof raw.requestRef === 'string' ? { requestRef: raw.requestRef } : {}),
      });
    }
    case 'system': {
      const { content, level, subtype, isMeta, logicalParentUuid } = raw;
      return ok({
        kind: 'system',
        ...envelope,
        subtype: str(subtype) ?? '',
        // an API error's words are in its `error` (the client writes no content for it)
        content: str(content) ?? (subtype === 'api_error' ? apiErrorText(raw) : undefined),
        level: str(level),
        isMeta: bool(isMeta) ?? false,
        logicalParentUuid: optUuid(logicalParentUuid),
        data: raw,
        // the client notes each failed attempt so; a request that failed for good is an API-error message instead
        ...(subtype === 'api_error' ? { retried: true as const } : {}),
      });
    }
    case 'attachment': {
      const attachment = isRecord(raw.attachment) ? raw.attachment : {};
      return ok({ kind: 'attachment', ...envelope, attachmentType: str(attachment.type) ?? '', attachment });
    }
    case 'progress': {
      const data = isRecord(raw.data) ? raw.data : {};
      return ok({
        kind: 'progress',
        ...envelope,
        dataType: str(data.type) ?? '',
        toolUseId: str(raw.toolUseID),
        parentToolUseId: str(raw.parentToolUseID),
        data,
      });
    }
    default:
      return type satisfies never;
  }
}

export function decodeUsage(raw: unknown): Usage | undefined {
  return tokensFromRawUsage(raw);
}

/** `~<line>@<file>`: a stand-in uuid for a chain record that has none (never a real uuid: those have no `~`). */
export function syntheticUuid(loc: SourceLocation): string {
  return `~${loc.line}@${loc.file}`;
}

/**
 * A `tool_use` block without an id is still a call the agent made: it gets `<record uuid>#<block index>`, stable
 * across copies of the record (resume and fork copy the uuid), so it is counted once everywhere.
 */
function withToolUseIds(blocks: ContentBlock[], uuid: string): ContentBlock[] {
  return blocks.map((block, index) =>
    block.kind === 'tool-use' && block.id === '' ? { ...block, id: createToolUseId(`${uuid}#${index}`) } : block,
  );
}

/** An unknown record at a chain record's place. */
function unknownOf(envelope: ChainEnvelope) {
  return { kind: 'unknown' as const, sessionId: envelope.sessionId, timestamp: envelope.timestamp, loc: envelope.loc };
}

function ok<T>(value: T): Decoded<T> {
  return { ok: true, value };
}
function optUuid(value: unknown): RecordUuid | undefined {
  const s = str(value);
  return s === undefined ? undefined : createRecordUuid(s);
}
function optSession(value: unknown) {
  const s = str(value);
  return s === undefined ? undefined : createSessionId(s);
}
function optAgent(value: unknown) {
  const s = str(value);
  return s === undefined ? undefined : createSubagentId(s);
}
function optTimestamp(value: unknown) {
  const s = str(value);
  return s === undefined ? undefined : createIsoTimestamp(s);
}
