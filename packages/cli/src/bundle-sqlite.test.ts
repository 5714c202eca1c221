import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';

const here = dirname(fileURLToPath(import.meta.url));
const bundled = resolve(here, '../bundle/bin.js');
// Where a release build of the addon is (`releaseAddon`): the case the bundle's own copy of the package serves.
const sqliteDir = dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3')));
const build = join(sqliteDir, 'build');
const release =
  existsSync(join(build, 'Release', 'better_sqlite3.node')) &&
  !existsSync(join(build, 'Debug')) &&
  !existsSync(join(build, 'better_sqlite3.node'));

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the bundle and SQLite', () => {
  it.skipIf(!existsSync(bundled) || !release)(
    "opens the index with better-sqlite3's JavaScript from the bundle, the installed addon loaded",
    () => {
      dir = mkdtempSync(join(tmpdir(), 'agentdash-bundle-sqlite-'));
      // What CommonJS loaded, written when the program exits.
      const preload = join(dir, 'loaded.mjs');
      const loaded = join(dir, 'loaded.json');
      writeFileSync(
        preload,
        `import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
process.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));
`,
      );
      const db = join(dir, 'index.sqlite');
      const run = () =>
        spawnSync(process.execPath, ['--import', preload, bundled, 'stats', '--json', SAMPLES_HOME, '--db', db], {
          encoding: 'utf8',
        });
      // A cold run (the full index) and a warm one (the light connection) both open it.
      for (const r of [run(), run()]) {
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toHaveProperty('sessions');
        const files = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
        expect(files).toContain(join(build, 'Release', 'better_sqlite3.node'));
        expect(files.filter((f) => f.startsWith(join(sqliteDir, 'lib') + sep))).toEqual([]);
      }
    },
  );
});
