import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: no test runs a stale build. Worker threads (parse, session, watch, OTLP workers), the CLI the
 * tests spawn and the dashboard the Chromium suites load are built code, while the tests import sources; a source
 * newer than its package's last build would let a test pass or fail on yesterday's code. Whatever is stale is built
 * here once, before any test starts, with the same commands as `npm run build` (incremental, so a fresh tree costs
 * one look at modification times).
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TS_PACKAGES = ['core', 'index', 'server', 'team', 'cli'];

/** The newest modification time under `dir` of the files `keep` accepts, 0 when there are none. */
export function newestUnder(dir: string, keep: (name: string) => boolean): number {
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(path, keep));
    else if (keep(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const mtime = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const builtSource = (name: string) =>
  /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.bench.ts');

/** The TypeScript packages whose sources are newer than their last build (`dist/.tsbuildinfo`). */
export function staleTypeScript(): string[] {
  return TS_PACKAGES.filter((name) => {
    const pkg = join(repo, 'packages', name);
    return newestUnder(join(pkg, 'src'), builtSource) > mtime(join(pkg, 'dist', '.tsbuildinfo'));
  });
}

/** Whether the dashboard's sources (its style sheets too) are newer than its build. */
export function staleWeb(): boolean {
  const web = join(repo, 'packages', 'web');
  const built = mtime(join(web, 'dist', 'index.html'));
  const source = (name: string) => builtSource(name) || name.endsWith('.css');
  return newestUnder(join(web, 'src'), source) > built || mtime(join(web, 'index.html')) > built;
}

/**
 * Each build runs as `npm run build` from a shell does: for production. Vitest sets `NODE_ENV=test`, and Vite builds
 * what that names: the dashboard with React's development runtime, about 40% more work for Chromium at each page the
 * Chromium suites load, and not the bundle that ships (e2e/production-build.test.ts).
 */
const buildEnv = { ...process.env, NODE_ENV: 'production' };

function run(what: string, command: string, args: readonly string[]): void {
  process.stderr.write(`fresh build: ${what}\n`);
  const done = spawnSync(command, args, { cwd: repo, env: buildEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.status !== 0) throw new Error(`fresh build: \`${command} ${args.join(' ')}\` failed (${done.status})`);
}

export default function freshDist(): void {
  const stale = staleTypeScript();
  if (stale.length > 0) run(`${stale.join(', ')} changed since the last build`, 'npx', ['tsc', '-b', 'packages/cli']);
  const web = staleWeb();
  if (web) run('the dashboard changed since its last build', 'npm', ['run', 'build', '-w', '@agentdash/web']);
  const bundle = mtime(join(repo, 'packages', 'cli', 'bundle', 'bin.js'));
  const built = Math.max(...TS_PACKAGES.map((name) => mtime(join(repo, 'packages', name, 'dist', '.tsbuildinfo'))));
  if (stale.length > 0 || web || bundle < built) run('the CLI bundle', 'node', ['scripts/bundle-cli.mjs']);
}
