/** An index in a new temporary folder for each test of a suite, closed and removed after it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type AgentIndex, openIndex } from '../src/index.js';

export interface TempIndex {
  /** The test's folder; its databases are under `db/`. */
  dir: string;
  /** The test's index (`open()`), which a test may replace; it is closed after the test. */
  index: AgentIndex;
  /** Another index file in `db/` (or the same one again). */
  open(name?: string, onWarning?: (message: string) => void): AgentIndex;
}

/** Registers the suite's hooks: before each test a new folder and `index`, after it both gone. */
export function useTempIndex(prefix = 'agentdash-index-'): TempIndex {
  const t: TempIndex = {
    dir: '',
    index: undefined as unknown as AgentIndex,
    open: (name = 'index.sqlite', onWarning) =>
      openIndex({ dbPath: join(t.dir, 'db', name), ...(onWarning ? { onWarning } : {}) }),
  };
  beforeEach(() => {
    t.dir = mkdtempSync(join(tmpdir(), prefix));
    t.index = t.open();
  });
  afterEach(() => {
    t.index.close();
    rmSync(t.dir, { recursive: true, force: true });
  });
  return t;
}
