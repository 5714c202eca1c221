/**
 * Another version of AgentDash on an index: its derived tables marked as that version's (what its `openIndex` leaves
 * after rebuilding them), for the suites of what a process does when it finds its index so.
 */
import { DERIVED_VERSION } from '@agentdash/index';
import Database from 'better-sqlite3';

/** Marks the index at `dbPath` as of derived version `version` (default: one this build is not), or this build's. */
export function markDerivedVersion(dbPath: string, version: number | 'this build' = DERIVED_VERSION + 1): void {
  const db = new Database(dbPath);
  try {
    const v = version === 'this build' ? DERIVED_VERSION : version;
    db.exec(`DELETE FROM derived_version; INSERT INTO derived_version (version) VALUES (${v})`);
  } finally {
    db.close();
  }
}
