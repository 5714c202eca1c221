/** The warm suites' setting: a copy of the sample home and an index of it, new for each test. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ageTree } from '@agentdash/testing/age-tree';
import { afterEach, beforeEach } from 'vitest';
import { type AgentIndex, openIndex } from '../src/index.js';
import { WarmIndex } from '../src/warm/warm.js';
import { copySamplesHome } from './temp-home.js';

export interface WarmHome {
  dir: string;
  home: string;
  dbPath: string;
  index: AgentIndex;
  /** The sample project the suites change files in. */
  project: string;
}

/** Registers the suite's hooks and gives the test's setting (its fields renewed before each test). */
export function useWarmHome(): WarmHome {
  const w = {} as WarmHome;
  beforeEach(() => {
    const { dir, home } = copySamplesHome('agentdash-warm-');
    Object.assign(w, { dir, home, project: join(home, 'projects', '-home-user-proj-shell') });
    w.dbPath = join(dir, 'index.sqlite');
    w.index = openIndex({ dbPath: w.dbPath });
  });
  afterEach(() => {
    w.index.close();
    rmSync(w.dir, { recursive: true, force: true });
  });
  return w;
}

/**
 * Refreshes that leave a freshness record: the tree aged first, and a second refresh (a folder first seen by a
 * refresh is vouched for by the next one). Then the light connection.
 */
export async function refreshed(w: WarmHome): Promise<WarmIndex> {
  ageTree(w.home);
  await w.index.refresh([w.home], { freshnessRecord: true });
  await w.index.refresh([w.home], { freshnessRecord: true });
  const warm = WarmIndex.open(w.dbPath);
  if (warm === undefined) throw new Error('no warm index after a refresh');
  return warm;
}
