import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const source = { conditions: ['@agentdash/source'] };

/**
 * `npm run test:fast` (AGENTDASH_TEST_LOOP=fast): the inner loop. Unit tests only: no Chromium, no PostgreSQL, and
 * none of the files `npm run test:slow-list` measured slow (test/slow-tests.json, one path per line from the repo's
 * root); a 5 s default timeout. `npm test` runs everything, as CI does.
 */
const fast = process.env.AGENTDASH_TEST_LOOP === 'fast';
const slowFiles: readonly string[] = fast
  ? (JSON.parse(readFileSync(new URL('./test/slow-tests.json', import.meta.url), 'utf8')) as string[])
  : [];

/**
 * Test files run in as many workers as there are cores, and at least two: Vitest's default (one fewer than the cores)
 * is a single worker on a two-core machine, which leaves a core idle whenever a file waits on a child process, a
 * browser, PostgreSQL or the disk. AGENTDASH_TEST_WORKERS sets another count.
 */
const workers = Number(process.env.AGENTDASH_TEST_WORKERS) || Math.max(2, availableParallelism());

/** One PostgreSQL for the run, shared by the projects with PostgreSQL suites (each file its own database on it). */
const postgres = fileURLToPath(new URL('./test/postgres.ts', import.meta.url));

/** One workspace's project: its test files, less the slow ones in the fast loop. */
function project(
  name: string,
  include: readonly string[],
  options: {
    timeoutMs?: number;
    shareModules?: boolean;
    afterTheOthers?: { readonly workers: number };
    globalSetup?: readonly string[];
  } = {},
): TestProjectInlineConfiguration {
  const root = name === 'e2e' ? 'packages/web' : name === 'scripts' ? 'scripts' : `packages/${name}`;
  const timeout = fast ? 5_000 : (options.timeoutMs ?? 120_000);
  return {
    resolve: source,
    ssr: { resolve: source },
    test: {
      name,
      root,
      include: [...include],
      exclude: [
        '**/node_modules/**',
        ...slowFiles.filter((f) => f.startsWith(`${root}/`)).map((f) => f.slice(root.length + 1)),
      ],
      testTimeout: timeout,
      hookTimeout: fast ? 10_000 : timeout,
      // Pure unit files that leave no global state behind share one module graph per worker (no re-import per file).
      ...(options.shareModules ? { isolate: false } : {}),
      ...(options.globalSetup ? { globalSetup: [...options.globalSetup] } : {}),
      ...(options.afterTheOthers
        ? { sequence: { groupOrder: 1 }, maxWorkers: Math.min(options.afterTheOthers.workers, workers) }
        : {}),
    },
  };
}

const unitAndCorpus = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/corpus-notice.ts', './test/fresh-dist.ts', './test/index-cache.ts'],
    maxWorkers: workers,
    projects: [
      project('core', unitAndCorpus, { shareModules: true }),
      project('index', ['src/**/*.test.ts']),
      project('server', ['src/**/*.test.ts']),
      project('team', unitAndCorpus, { globalSetup: [postgres] }),
      project('cli', unitAndCorpus, { globalSetup: [postgres] }),
      project('web', ['src/**/*.test.ts', 'src/**/*.test.tsx'], { shareModules: true }),
      // The repository's own scripts (the drift check's comparisons); they read packages/core/dist.
      project('scripts', ['**/*.test.mjs']),
      // The Chromium suites, in their own group after the others (each drives a browser and a server: beside the other
      // files a browser's waits missed on a loaded machine), one file at a time unless AGENTDASH_TEST_E2E_WORKERS says
      // more; each worker has one Chromium for the run (e2e/browser-server.ts), each file contexts of its own. Not in the
      // fast loop.
      ...(fast
        ? []
        : [
            project('e2e', ['e2e/**/*.test.ts'], {
              timeoutMs: 180_000,
              afterTheOthers: { workers: Number(process.env.AGENTDASH_TEST_E2E_WORKERS) || 1 },
              globalSetup: ['./e2e/browser-server.ts', postgres],
            }),
          ]),
    ],
  },
});
