import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: the folder where `copyOfIndex` (@agentdash/testing/index-cache) keeps the indexes built in this
 * run, one per set of homes, removed when the run ends. The workers inherit its path through the environment.
 */
export default function indexCache(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-test-indexes-'));
  process.env.AGENTDASH_TEST_CACHE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
