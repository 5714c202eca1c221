import type { EmbeddedRecord } from '../../agents/adapter.js';
import { isRecord, str } from '../../internal/guards.js';
import type { ProgressRecord } from '../../model/record.js';
import { decodeRecord } from './decode-record.js';

/**
 * [`embeddedRecordOf`] Claude Code 2.1.x writes each record of a subagent twice: in the subagent's own file and, in
 * its parent's file, as a `progress` record with `data.type: "agent_progress"`, `data.agentId` and `data.message`,
 * the subagent's record cut to `{type, message, uuid, timestamp}` (sometimes `toolUseResult`, `requestId`). This
 * decodes that record as the subagent's file holds it: a sidechain record of that agent, with the directory, version,
 * branch and session of the progress record around it (the subagent's file repeats its parent's) and no parent uuid
 * (the copy names none). Only user and assistant records: nothing else is copied so. A copy of an agent in `skip`
 * is not decoded (undefined): its agent's file is there, and that is the one read.
 */
export function embeddedRecordOf(record: ProgressRecord, skip?: ReadonlySet<string>): EmbeddedRecord | undefined {
  if (record.dataType !== 'agent_progress') return undefined;
  const agentId = str(record.data.agentId);
  const inner = record.data.message;
  if (agentId === undefined || agentId === '' || skip?.has(agentId) || !isRecord(inner)) return undefined;
  if (inner.type !== 'user' && inner.type !== 'assistant') return undefined;
  const decoded = decodeRecord(
    {
      ...inner,
      parentUuid: null,
      isSidechain: true,
      agentId,
      sessionId: record.sessionId,
      cwd: record.cwd,
      version: record.version,
      gitBranch: record.gitBranch,
    },
    record.loc,
  );
  return decoded.ok ? { agentId, record: decoded.value } : undefined;
}
