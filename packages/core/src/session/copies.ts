import type { ChainRecord } from '../model/record.js';

/**
 * The ids a chain record's blocks carry (a call's id, a result's call id, else the block's kind; a string content's
 * length): with kind, time and message id, what tells apart two records of one uuid in one file. The index stores
 * them for placeholder uuids (`records.sig`), so its header drops the same copies `loadSession` drops.
 */
export function blockIdsOf(record: ChainRecord): (string | number)[] {
  const blocks = record.kind === 'user' || record.kind === 'assistant' ? record.content : [];
  return typeof blocks === 'string'
    ? [blocks.length]
    : blocks.map((b) => (b.kind === 'tool-use' ? b.id : b.kind === 'tool-result' ? b.toolUseId : b.kind));
}

/** What tells two records of one uuid apart: kind, time, message id, and the ids of the calls and results they carry. */
export function signatureOf(record: ChainRecord): string {
  const messageId = record.kind === 'assistant' ? record.messageId : undefined;
  return JSON.stringify([record.kind, record.timestamp, messageId, blockIdsOf(record)]);
}
