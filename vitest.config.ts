import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

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
 * Test files run in as many workers as there are cores, and at least three: Vitest's default (one fewer than the
 * cores) is a single worker on a two-core machine, and even two left the cores partly idle (1.6 of 2 busy on average)
 * whenever a file waits on a child process, a browser, PostgreSQL or the disk. AGENTDASH_TEST_WORKERS sets another
 * count.
 */
const workers = Number(process.env.AGENTDASH_TEST_WORKERS) || Math.max(3, availableParallelism());

/**
 * One PostgreSQL for the run, shared by the projects with PostgreSQL suites (each file its own database on it). None in
 * the fast loop, which leaves out the suites that need it: the team server's (its test/ folder) and the CLI's against a
 * team server (on the slow list); one left in there would start a server of its own (`startPostgres`).
 */
const postgres = fast ? [] : [fileURLToPath(new URL('./test/postgres.ts', import.meta.url))];

/** `AGENTDASH_TEST_CPU=FILE`: each test file's CPU time appended to FILE (test/file-cpu.ts, `npm run test:cpu`). */
const fileCpu = process.env.AGENTDASH_TEST_CPU ? [fileURLToPath(new URL('./test/file-cpu.ts', import.meta.url))] : [];

type ProjectOptions = {
  timeoutMs?: number;
  shareModules?: boolean;
  afterTheOthers?: { readonly workers: number };
  globalSetup?: readonly string[];
};

/** The test files under `dir` (relative to it, `/`-separated) whose source replaces a module (`vi.mock`). */
function mockingFiles(dir: string, prefix = ''): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : mockingFiles(dir, path);
    if (!/\.test\.tsx?$/.test(entry.name)) return [];
    return /\bvi\.(mock|doMock)\(/.test(readFileSync(join(dir, path), 'utf8')) ? [path] : [];
  });
}

/**
 * One workspace's project: its test files, less the slow ones in the fast loop. With `shareModules`, the files share
 * one module graph per worker (each module is loaded once per worker, not once per file: loading the sources is most
 * of a short file's time). They must leave no state behind: no environment variable, working folder, global or
 * module-level setting changed and not restored. A file that replaces a module (`vi.mock`) would change it for the
 * files after it, and the mock would miss the modules already loaded: such files run in a sibling project,
 * `NAME:isolated`, each file with modules of its own.
 */
function project(
  name: string,
  include: readonly string[],
  options: ProjectOptions = {},
): TestProjectInlineConfiguration[] {
  const root = name === 'e2e' ? 'packages/web' : name === 'scripts' ? 'scripts' : `packages/${name}`;
  const timeout = fast ? 5_000 : (options.timeoutMs ?? 120_000);
  const slow = slowFiles.filter((f) => f.startsWith(`${root}/`)).map((f) => f.slice(root.length + 1));
  const mocking = options.shareModules ? mockingFiles(fileURLToPath(new URL(`./${root}/`, import.meta.url))) : [];
  const config = (projectName: string, files: readonly string[], exclude: readonly string[], isolate: boolean) => ({
    resolve: source,
    ssr: { resolve: source },
    test: {
      name: projectName,
      root,
      include: [...files],
      exclude: ['**/node_modules/**', ...slow, ...exclude],
      testTimeout: timeout,
      hookTimeout: fast ? 10_000 : timeout,
      ...(isolate ? {} : { isolate: false }),
      ...(fileCpu.length > 0 ? { setupFiles: fileCpu } : {}),
      ...(options.globalSetup ? { globalSetup: [...options.globalSetup] } : {}),
      ...(options.afterTheOthers
        ? { sequence: { groupOrder: 1 }, maxWorkers: Math.min(options.afterTheOthers.workers, workers) }
        : {}),
    },
  });
  return [
    config(name, include, mocking, !options.shareModules),
    ...(mocking.length > 0 ? [config(`${name}:isolated`, mocking, [], true)] : []),
  ];
}

const unitAndCorpus = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/corpus-notice.ts', './test/fresh-dist.ts', './test/index-cache.ts'],
    maxWorkers: workers,
    // Each module's transform kept on disk (node_modules/.experimental-vitest-cache, keyed by its content and the
    // config) for the next run: a run after the first transforms only what changed.
    experimental: { fsModuleCache: true },
    // The longest files first, from Vitest's cache or test/file-times.json (a fresh clone has no cache).
    sequence: { sequencer: LongestFirst },
    projects: [
      ...project('core', unitAndCorpus, { shareModules: true }),
      ...project('index', ['src/**/*.test.ts'], { shareModules: true }),
      ...project('server', ['src/**/*.test.ts'], { shareModules: true }),
      ...project('team', fast ? ['src/**/*.test.ts'] : unitAndCorpus, { globalSetup: postgres, shareModules: true }),
      ...project('cli', unitAndCorpus, { globalSetup: postgres, shareModules: true }),
      ...project('web', ['src/**/*.test.ts', 'src/**/*.test.tsx'], { shareModules: true }),
      // The repository's own scripts (the drift check's comparisons); they read packages/core/dist.
      ...project('scripts', ['**/*.test.mjs']),
      // The Chromium suites, in their own group after the others (each drives a browser and a server: beside the other
      // files a browser's waits missed on a loaded machine), one file at a time unless AGENTDASH_TEST_E2E_WORKERS says
      // more; each worker has one Chromium for the run (e2e/browser-server.ts), each file contexts of its own. Not in the
      // fast loop.
      ...(fast
        ? []
        : [
            ...project('e2e', ['e2e/**/*.test.ts'], {
              timeoutMs: 180_000,
              shareModules: true,
              afterTheOthers: { workers: Number(process.env.AGENTDASH_TEST_E2E_WORKERS) || 2 },
              globalSetup: ['./e2e/browser-server.ts', ...postgres],
            }),
          ]),
    ],
  },
});
