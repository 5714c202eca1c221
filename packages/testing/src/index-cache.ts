/**
 * An index of the same homes built once per test run, each test getting its own copy. Cold-indexing a `../shared` home
 * costs seconds of CPU and many suites only need the index to exist before they check what is read from it; those
 * call `copyOfIndex` instead of `refresh`-ing a new file cold. Suites that test the indexing itself (cold and warm
 * refresh, upgrades, concurrent writers) keep building their own.
 *
 * The cache lives in the run's folder (`AGENTDASH_TEST_CACHE`, made and removed by the global setup
 * `test/index-cache.ts`), so no index outlives the code that built it. Two workers asking for the same home at once
 * both build it (no waiting on each other) and the second rename wins; the copies are equal either way. Outside such a
 * run (no `AGENTDASH_TEST_CACHE`) the index is built where it is asked for.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { openIndex } from '@agentdash/index';
import { repoRoot, sharedDir } from './shared.js';

export const INDEX_CACHE_ENV = 'AGENTDASH_TEST_CACHE';

/** Homes no test writes into: `../shared`, the bundled fixtures and samples. Only their indexes are cached. */
const packagesDir = join(repoRoot, 'packages');
const isReadOnly = (path: string) => {
  const at = resolve(path);
  if (at === sharedDir || at.startsWith(sharedDir + sep)) return true;
  return at.startsWith(packagesDir + sep) && /[/\\](fixtures|samples)([/\\]|$)/.test(at.slice(packagesDir.length));
};

async function build(dbPath: string, paths: readonly string[]): Promise<void> {
  const index = openIndex({ dbPath });
  try {
    await index.refresh([...paths]);
  } finally {
    index.close();
  }
}

/**
 * Write at `dbPath` an index of `paths` as a cold `refresh(paths)` with the default options leaves it, copied from the
 * run's cache (built there on first use) when every path is read-only data, else built there. The caller opens it and may refresh it again (a warm refresh finds nothing
 * new).
 */
export async function copyOfIndex(paths: readonly string[], dbPath: string): Promise<void> {
  const cache = process.env[INDEX_CACHE_ENV];
  if (!cache || !existsSync(cache) || !paths.every(isReadOnly)) {
    await build(dbPath, paths);
    return;
  }
  const key = createHash('sha256')
    .update(JSON.stringify(paths.map((path) => resolve(path))))
    .digest('hex')
    .slice(0, 24);
  const cached = join(cache, `${key}.sqlite`);
  if (!existsSync(cached)) {
    const dir = mkdtempSync(join(cache, `${key}-`));
    try {
      await build(join(dir, 'index.sqlite'), paths);
      renameSync(join(dir, 'index.sqlite'), cached);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  copyFileSync(cached, dbPath);
}
