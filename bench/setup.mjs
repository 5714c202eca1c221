// What every bench run shares: where the repository, the built CLI and the cache are, the size asked for, and the
// sessions the bench home is built from (../shared/corpus, else the bundled samples).
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = join(root, 'packages/cli/bin/agentdash.js');
const corpus = resolve(root, '../shared/corpus');
export const fromCorpus = existsSync(corpus);
export const cache = process.env.AGENTDASH_BENCH_CACHE || join(tmpdir(), 'agentdash-bench-cache');
export const gib = Number(process.env.BENCH_GIB || 1);
mkdirSync(cache, { recursive: true });

/** The Claude homes the bench home copies. */
export const sources = fromCorpus
  ? readdirSync(corpus)
      .map((v) => join(corpus, v, 'claude-home'))
      .filter((p) => existsSync(join(p, 'projects')))
  : [join(root, 'packages/cli/samples/claude-home')];
