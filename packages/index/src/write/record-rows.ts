/**
 * What the importer stores of one streamed event, as plain row values (no database): the part of importing that
 * needs no lookup, so that it can run in a parse worker (parse-worker.ts) and reach the writer as compact arrays
 * (`v8.serialize`d), or in the writer's own thread for small reads. `Writer.apply` stores them.
 */
import {
  blockIdsOf,
  preToolHookCallOf,
  promptTitleOf,
  type RecordEvent,
  requestFailureOf,
  shownOf,
  type TranscriptRecord,
  threadPromptOf,
  timestampMs,
} from '@agentdash/core';
import { secretRulesOf } from '@agentdash/core/secrets';
import { DOC_KINDS, RECORD_KINDS, storedKind, storedTs, storedUuid } from '../schema/stored-values.js';
import { spaceCjk } from './cjk.js';
import { type DocNumbers, docPartsOf, indexedText } from './doc-parts.js';
import { OP, type Op, type RecordRow, type StoredUuid } from './row-ops.js';

/**
 * `records.is_synthetic`: 0 a model's response (or another record), 1 a request that failed (core's
 * `requestFailureOf`: an API-error message the client wrote, another agent's error note), 2 another synthetic
 * message, 3 a failed attempt the agent retried.
 */
function syntheticKind(record: TranscriptRecord): 0 | 1 | 2 | 3 {
  const failure = requestFailureOf(record);
  if (failure !== undefined) return failure === 'failed' ? 1 : 3;
  if (record.kind !== 'assistant' || !(record.isSynthetic || record.model === '<synthetic>')) return 0;
  return 2;
}

/**
 * `records.shown`: how the timeline shows a record by default (core's `shownOf`, the fact `ThreadTally` counts): 1 a
 * prompt, 2 another event, 0 otherwise. 1 is also the list's prompt (core's `isPrompt`: a user record no rule hides,
 * which `shownOf` calls a prompt), so one column holds both. Responses count once per message id (their key is
 * stored), unknown records per file.
 */
function storedShown(record: TranscriptRecord): 0 | 1 | 2 {
  const shown = shownOf(record);
  return shown === 'prompt' ? 1 : shown === 'note' ? 2 : 0;
}

/**
 * What tells records of one uuid apart in one file (core's `signatureOf`: kind, time, message id and the ids its
 * blocks carry, `blockIdsOf`), stored only for a uuid that is not a canonical one (`uuid`, the record's stored uuid):
 * placeholders that hand-made files repeat.
 * Records of a real uuid repeated in a file are copies, told apart by kind, time and message id.
 */
function signatureOf(
  record: Extract<TranscriptRecord, { kind: 'user' | 'assistant' | 'system' | 'attachment' | 'progress' }>,
  uuid: StoredUuid,
): string | null {
  if (typeof uuid !== 'string') return null;
  return JSON.stringify(blockIdsOf(record));
}

/**
 * The record columns from `cwd` to `request_ref` of a record that is only a time (a line that is not a chain
 * record), and its header columns (`parent_raw` to `turns_unrecorded`): none.
 */
const TIME_ONLY = [null, null, null, null, null, 0, 0, 0, null, null, null, null, null, null, null, null] as const;
const NO_HEADER_FACTS = [null, null, null, null, null, null] as const;
/** `TIME_ONLY` with the model column set. */
const timeOnlyWithModel = (model: string) =>
  [null, null, null, model, null, 0, 0, 0, null, null, null, null, null, null, null, null] as const;

/** The file whose events become rows: its subagent id (a sidechain record's agent when the record names none). */
export interface OpsFile {
  readonly agentId: string | null;
  readonly role: 'main' | 'subagent';
  /**
   * The records are a subagent's copied into the file (copy-rows.ts), of this agent: not counted as the file's
   * records, titling nothing, each row at its holder's line plus `COPY_LINE`.
   */
  readonly copyOf?: string;
  /** The read's document numbers: a document's `part` is its number among its place's documents. */
  readonly docs: DocNumbers;
}

/**
 * Where a copied record's row is (`records` keeps one row per line, its holder's): right after its holder, as core
 * reads it, and apart from every row of the file's own lines. Its calls, results and documents keep the holder's line.
 */
export const COPY_LINE = 0.5;

/** The row operations of one event of a file. */
export function opsOfEvent(event: RecordEvent, file: OpsFile, out: Op[]): void {
  if (event.kind === 'issue') {
    out.push([OP.issue, event.issue.line, event.issue.code, event.issue.message]);
    return;
  }
  const copyOf = file.copyOf;
  if (copyOf === undefined) out.push([OP.begin]);
  const record = event.record;
  const line = record.loc.line;
  switch (record.kind) {
    case 'user':
    case 'assistant':
    case 'system':
    case 'attachment':
    case 'progress': {
      const agentId = record.isSidechain ? (record.agentId ?? file.agentId ?? 'sidechain') : null;
      const assistant = record.kind === 'assistant' ? record : undefined;
      const ms = timestampMs(record.timestamp) ?? null;
      const ts = storedTs(record.timestamp, ms);
      const usage = assistant?.usage;
      const uuid = storedUuid(record.uuid);
      const recordOp: RecordRow = [
        OP.record,
        copyOf === undefined ? line : line + COPY_LINE,
        storedKind(record.kind, RECORD_KINDS),
        uuid,
        ts,
        ms,
        record.cwd ?? null,
        record.version ?? null,
        record.gitBranch ?? null,
        assistant?.model ?? null,
        assistant?.messageId ?? null,
        record.isSidechain ? 1 : 0,
        syntheticKind(record),
        // The header's thread counts, and (1) the list's prompt count and the time partition: core's one rule,
        // blank prompts included.
        storedShown(record),
        // No input where the client recorded only the output (core's `Usage.inputUnrecorded`): unknown, not 0.
        usage?.inputUnrecorded ? null : (usage?.inputTokens ?? null),
        usage?.outputTokens ?? null,
        usage?.cacheCreationInputTokens ?? null,
        usage?.cacheReadInputTokens ?? null,
        assistant?.requestId ?? null,
        usage?.cacheCreation1hInputTokens ?? null,
        usage?.reasoningOutputTokens ?? null,
        assistant?.requestRef ?? null,
        // Subagent runs written inside a main file (≤2.0.27) are told apart by their parents.
        record.isSidechain ? storedUuid(record.parentUuid) : null,
        // What a subagent was asked (`ThreadTally`'s first prompt): in a subagent's file, or a sidechain run.
        record.isSidechain || file.role === 'subagent' ? (threadPromptOf(record) ?? null) : null,
        signatureOf(record, uuid),
        null,
        // Below what its content took (core's `Usage.outputAtLeast`): the stream's first count, not the response's.
        usage?.outputAtLeast ?? null,
        usage?.turnsUnrecorded ?? null,
      ];
      if (copyOf !== undefined) recordOp.push(copyOf);
      out.push(recordOp);
      // Result blocks without an id (pairing reports them) count on the record's row.
      let idless = 0;
      if (record.kind === 'user') {
        // The first one in the main file titles the session when it has no other title (core's one rule).
        const title = copyOf === undefined ? promptTitleOf(record) : undefined;
        if (title !== undefined) out.push([OP.title, line, 'first-prompt', title, null]);
        if (typeof record.content !== 'string') {
          for (const block of record.content) {
            if (block.kind !== 'tool-result') continue;
            if (block.toolUseId === '') {
              idless += 1;
              continue;
            }
            out.push([OP.result, block.toolUseId, line, ts, ms, record.loc.offset]);
          }
          if (idless > 0) recordOp[25] = idless;
        }
      } else if (record.kind === 'assistant') {
        for (const block of record.content) {
          if (block.kind !== 'tool-use') continue;
          out.push([OP.call, block.id, line, block.name, record.loc.offset, ts, ms, agentId]);
        }
      } else if (record.kind === 'progress' && copyOf === undefined) {
        const hooked = preToolHookCallOf(record);
        if (hooked !== undefined) out.push([OP.hook, hooked]);
      }
      docOps(record, file, ts, ms, agentId, out);
      return;
    }
    case 'title':
      out.push([OP.title, line, record.source, record.title, null, secretRulesOf(record.title)]);
      return;
    case 'summary':
      out.push([OP.title, line, 'summary', record.summary, record.leafUuid ?? null, secretRulesOf(record.summary)]);
      return;
    case 'last-prompt':
    case 'queue-operation':
    case 'file-history-snapshot':
    case 'cost-state':
    case 'meta':
      // Not chain records, but their timestamps count for the session's time range (as in core).
      if (record.timestamp !== undefined) {
        const ms = timestampMs(record.timestamp) ?? null;
        out.push([
          OP.record,
          line,
          storedKind(record.kind, RECORD_KINDS),
          null,
          storedTs(record.timestamp, ms),
          ms,
          // The model a settings record says was asked for (core's `MetaRecord.model`).
          ...(record.kind === 'meta' && record.model !== undefined ? timeOnlyWithModel(record.model) : TIME_ONLY),
          ...NO_HEADER_FACTS,
        ]);
      }
      return;
    case 'api-request': {
      // A request as it went out (not its blobs or shapes): where a wait on the model starts.
      const ts = timestampMs(record.timestamp);
      if (record.type === 'api-request' && record.id !== undefined && ts !== undefined) {
        out.push([OP.request, line, record.id, ts, record.agentId ?? null]);
      }
      return;
    }
    case 'unknown': {
      out.push([OP.unknown]);
      // shown raw in the timeline, and searched as it is shown
      const ms = timestampMs(record.timestamp) ?? null;
      docOps(record, file, storedTs(record.timestamp, ms), ms, null, out);
      return;
    }
    default:
      record satisfies never;
  }
}

/** A record's searchable texts (indexed, not stored), with the secret rules each matches. */
function docOps(
  record: TranscriptRecord,
  file: OpsFile,
  ts: string | null,
  ms: number | null,
  agentId: string | null,
  out: Op[],
): void {
  const parts = docPartsOf(record);
  const first = file.docs.take(record.loc, parts.length);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined) continue;
    out.push([
      OP.doc,
      record.loc.line,
      record.loc.offset,
      first + i,
      ts,
      ms,
      storedKind(part.kind, DOC_KINDS),
      part.tool ?? null,
      part.callId ?? null,
      agentId,
      // What FTS5 tokenizes: each CJK character a word of its own (cjk.ts); snippets show `indexedText`. As UTF-8
      // bytes, what SQLite takes: made in the parse worker, they wait in the writer outside its heap.
      Buffer.from(spaceCjk(indexedText(part)), 'utf8'),
      secretRulesOf(part.secretsIn ?? part.text),
      part.kind,
    ]);
  }
}
