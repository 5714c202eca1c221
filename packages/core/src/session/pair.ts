import type { ParseIssue } from '../model/issue.js';
import type { RawResult } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';
import type { RawCallWithAgent } from './build-call.js';
import { ResultPairing } from './thread-tally.js';

/**
 * The session's calls and its `tool_use_id → result` map (seed 003), built in one pass over every record of a session,
 * in any file and in any order (a result can precede its call), its issues in the order of the records they are on
 * (as the streamed session, `SessionFacts`, finds them). Each call once by id: resume and fork copies repeat them; a
 * block that reuses the id of another call is an issue ({@link reusedCallId}). The first result for an id wins; later
 * ones are issues (`ResultPairing`, the rule the index's header counts by).
 */
export function pairRecords(
  records: Iterable<TranscriptRecord>,
  issues: ParseIssue[],
): { readonly calls: Map<string, RawCallWithAgent>; readonly results: Map<string, RawResult> } {
  const calls = new Map<string, RawCallWithAgent>();
  const results = new Map<string, RawResult>();
  const pairing = new ResultPairing();
  for (const record of records) {
    if (record.kind === 'assistant') {
      for (const block of record.content) {
        if (block.kind !== 'tool-use') continue;
        const seen = calls.get(block.id);
        if (seen !== undefined) {
          const reused = reusedCallId(seen, block.id, block.name, record);
          if (reused !== undefined) issues.push(reused);
          continue;
        }
        calls.set(block.id, {
          id: block.id,
          name: block.name,
          input: block.input,
          timestamp: record.timestamp,
          loc: record.loc,
          messageId: record.messageId,
          agentId: record.isSidechain ? (record.agentId ?? 'sidechain') : undefined,
        });
      }
      continue;
    }
    if (record.kind !== 'user' || typeof record.content === 'string') continue;
    const resultCount = record.content.filter((b) => b.kind === 'tool-result').length;
    for (const block of record.content) {
      if (block.kind !== 'tool-result') continue;
      if (!pairing.first(block.toolUseId)) {
        issues.push({
          code: 'duplicate_result',
          file: record.loc.file,
          line: record.loc.line,
          message: `second result for tool_use ${block.toolUseId} ignored`,
        });
        continue;
      }
      results.set(block.toolUseId, {
        toolUseId: block.toolUseId,
        uuid: record.uuid,
        timestamp: record.timestamp,
        loc: record.loc,
        isError: block.isError,
        content: block.content,
        // A record has one toolUseResult; it is only known to belong to a result when the record holds one result.
        toolUseResult: resultCount === 1 ? record.toolUseResult : undefined,
      });
    }
  }
  return { calls, results };
}

/** What a call kept by its id says of itself, to tell a copy of it from another call reusing the id. */
interface KeptCall {
  readonly name: string;
  readonly messageId: string | undefined;
  readonly loc: { readonly file: string; readonly line: number };
}

/**
 * A tool_use block whose id an earlier call has: a copy of that call (resume and fork copies repeat the response
 * that made it, message id and all) is nothing to say; another call — another tool, or another response — is shown
 * nowhere, since results pair by id (seed 003), so it is an issue naming both places. Undefined for a copy.
 */
export function reusedCallId(
  kept: KeptCall,
  id: string,
  name: string,
  record: { readonly messageId: string | undefined; readonly loc: { readonly file: string; readonly line: number } },
): ParseIssue | undefined {
  if (kept.name === name && kept.messageId === record.messageId) return undefined;
  const where = kept.loc.file === record.loc.file ? `line ${kept.loc.line}` : `${kept.loc.file}:${kept.loc.line}`;
  return {
    code: 'reused_call_id',
    file: record.loc.file,
    line: record.loc.line,
    message: `${name} call reuses the id ${id} of the ${kept.name} call at ${where}: results pair by id, so it is not shown as a call of its own`,
  };
}
