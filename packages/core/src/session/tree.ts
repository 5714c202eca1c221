import type { RecordUuid } from '../model/ids.js';
import type { ChainRecord, TranscriptRecord } from '../model/record.js';
import { isChainRecord } from '../model/record.js';

/**
 * The parentUuid tree of a session. Compaction boundaries have `parentUuid: null` and point back through
 * `logicalParentUuid`; attachment and progress records are links like any other. Leaves are not tips: parallel
 * tool results have no children (FORMAT.md §3.1), so the tip comes from `last-prompt.leafUuid` or the newest record.
 */
export interface RecordTree {
  readonly byUuid: ReadonlyMap<string, ChainRecord>;
  /** Children by parent uuid (logical parents included). */
  readonly children: ReadonlyMap<string, readonly ChainRecord[]>;
  readonly roots: readonly ChainRecord[];
}

export function buildRecordTree(records: Iterable<TranscriptRecord>): RecordTree {
  const byUuid = new Map<string, ChainRecord>();
  const children = new Map<string, ChainRecord[]>();
  const roots: ChainRecord[] = [];
  for (const record of records) {
    if (!isChainRecord(record) || byUuid.has(record.uuid)) continue;
    byUuid.set(record.uuid, record);
  }
  for (const record of byUuid.values()) {
    const parent = parentOf(record);
    if (parent === undefined || !byUuid.has(parent)) {
      roots.push(record);
      continue;
    }
    const list = children.get(parent) ?? [];
    list.push(record);
    children.set(parent, list);
  }
  return { byUuid, children, roots };
}

/** The parent of a record, following a compaction boundary's logical parent across the break. */
export function parentOf(record: ChainRecord): RecordUuid | undefined {
  if (record.parentUuid !== null) return record.parentUuid;
  if (record.kind === 'system' && record.logicalParentUuid !== undefined) return record.logicalParentUuid;
  return undefined;
}

/** The records from the root to `leaf` (inclusive), across compaction boundaries. Stops on a cycle. */
export function pathTo(tree: RecordTree, leaf: RecordUuid): ChainRecord[] {
  const path: ChainRecord[] = [];
  const seen = new Set<string>();
  let current = tree.byUuid.get(leaf);
  while (current && !seen.has(current.uuid)) {
    seen.add(current.uuid);
    path.push(current);
    const parent = parentOf(current);
    current = parent === undefined ? undefined : tree.byUuid.get(parent);
  }
  return path.reverse();
}
