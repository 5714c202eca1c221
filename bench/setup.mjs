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

/** The URL a started `serve --json` prints first (without its trailing slash); rejects if the server exits first. */
export function servedUrl(child, stderrOf) {
  return new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /"url":\s*"([^"]+)"/.exec(out);
      if (m) done(m[1].replace(/\/$/, ''));
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stderrOf()}`)));
  });
}

/** GET `base + path` as JSON; any status but 2xx throws. */
export const jsonGetter = (base) => async (path) => {
  const res = await fetch(base + path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
};
