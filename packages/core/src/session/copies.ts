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

/**
 * Which records of a session are resume or fork copies, the rule `loadSession`, its stream and the index's header
 * share: a record whose uuid an earlier file holds is a copy; within one file, a uuid repeated with the same
 * signature (`signatureOf`, or what the reader keeps of it) is one, as stitched and hand-made files repeat
 * placeholder uuids on other records. A fold: `isCopy` for each record with a uuid, file by file, `endFile` after each.
 */
export class CopyFilter {
  private readonly earlier = new Set<string>();
  private mine = new Map<string, Set<string>>();

  /** Whether this record is a copy (then dropped); otherwise it is kept and remembered. */
  isCopy(uuid: string, signature: string): boolean {
    if (this.earlier.has(uuid)) return true;
    const signatures = this.mine.get(uuid);
    if (signatures?.has(signature)) return true;
    if (signatures) signatures.add(signature);
    else this.mine.set(uuid, new Set([signature]));
    return false;
  }

  /** The file is read: its uuids are an earlier file's for the next ones. */
  endFile(): void {
    for (const uuid of this.mine.keys()) this.earlier.add(uuid);
    this.mine = new Map();
  }

  /** Whether a kept record of the files ended so far has this uuid. */
  holds(uuid: string): boolean {
    return this.earlier.has(uuid);
  }
}
