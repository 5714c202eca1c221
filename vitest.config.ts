import { readFileSync } from 'node:fs';
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

/** One workspace's project: its test files, less the slow ones in the fast loop. */
function project(
  name: string,
  include: readonly string[],
  options: { timeoutMs?: number; serial?: boolean } = {},
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
      ...(options.serial ? { fileParallelism: false } : {}),
    },
  };
}

const unitAndCorpus = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/corpus-notice.ts'],
    projects: [
      project('core', unitAndCorpus),
      project('index', ['src/**/*.test.ts']),
      project('server', ['src/**/*.test.ts']),
      project('team', unitAndCorpus),
      project('cli', unitAndCorpus),
      project('web', ['src/**/*.test.ts', 'src/**/*.test.tsx']),
      // The repository's own scripts (the drift check's comparisons); they read packages/core/dist.
      project('scripts', ['**/*.test.mjs']),
      // The Chromium suites, one file at a time (each drives a browser and a server); not in the fast loop.
      ...(fast ? [] : [project('e2e', ['e2e/**/*.test.ts'], { timeoutMs: 180_000, serial: true })]),
    ],
  },
});
