/**
 * The dashboard the Chromium suites load is a production build, as the one shipped: React's development runtime
 * (each element created with a captured stack and a console task) made every page load markedly more work for
 * Chromium, and a check of what the bundle does in development mode is a check of a bundle nobody runs. The build
 * made by the run's global setup (test/fresh-dist.ts) inherited Vitest's `NODE_ENV=test` and was one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { e2eMissing } from './harness';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
/** What only React's development builds hold: the frame each element's captured stack starts at. */
const DEVELOPMENT_REACT = 'react-stack-top-frame';

/** Node's file functions an agent's homes and parser call (core/src/io/), which no browser has. */
const NODE_FILES = /\b(?:readdir|readFile|createReadStream)(?:Sync)?\)?\(/;

/** The dashboard's scripts and the HTML export's, as paths under dist/. */
function scripts(): string[] {
  return ['assets', 'export'].flatMap((dir) =>
    readdirSync(join(dist, dir))
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(dir, name)),
  );
}

describe.skipIf(e2eMissing() !== undefined)('the dashboard the Chromium suites load', () => {
  it('is a production build: no script of it holds React’s development runtime', () => {
    const all = scripts();
    expect(all.length).toBeGreaterThan(1);
    const development = all.filter((path) => readFileSync(join(dist, path), 'utf8').includes(DEVELOPMENT_REACT));
    expect(development).toEqual([]);
  });

  it('holds no agent’s homes or parser (web/node-only.ts): no script calls Node’s file functions', () => {
    const all = scripts();
    expect(all.length).toBeGreaterThan(1);
    expect(all.filter((path) => NODE_FILES.test(readFileSync(join(dist, path), 'utf8')))).toEqual([]);
  });
});
