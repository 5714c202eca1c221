import { str } from '../../internal/guards.js';
import { createSessionId } from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { MetaRecord } from '../../model/record.js';
import { stampOf } from './parts.js';

/** The session header (first line of a JSONL file, the top level of a JSON document) as a meta record. */
export function headerRecord(header: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  const { messages, ...data } = header;
  return {
    kind: 'meta',
    type: 'gemini-session',
    sessionId: sessionIdOf(header),
    timestamp: stampOf(header.startTime),
    loc,
    data: Array.isArray(messages) ? { ...data, messageCount: messages.length } : data,
  };
}

/**
 * A `{"$set": {…}}` update line as a meta record. `$set.messages` (the client's rebuilt view, written at start and
 * on resume without tokens, tool calls or thoughts) is kept as a count only: the standalone message lines are the
 * record of what happened.
 */
export function setRecord(patch: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  const { messages, ...data } = patch;
  return {
    kind: 'meta',
    type: '$set',
    sessionId: undefined,
    timestamp: stampOf(patch.lastUpdated),
    loc,
    data: Array.isArray(messages) ? { ...data, messages: messages.length } : data,
  };
}

/**
 * An earlier line of a message that a later line with the same id replaced (0.61 writes a model turn first without,
 * then with its tool calls): kept as a meta record at its own place, pointing at the message.
 */
export function supersededRecord(message: Record<string, unknown>, loc: SourceLocation): MetaRecord {
  return {
    kind: 'meta',
    type: 'gemini-superseded',
    sessionId: undefined,
    timestamp: stampOf(message.timestamp),
    loc,
    data: { id: message.id },
  };
}

function sessionIdOf(header: Record<string, unknown>) {
  const id = str(header.sessionId);
  return id === undefined ? undefined : createSessionId(id);
}
