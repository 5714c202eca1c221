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

describe.skipIf(e2eMissing() !== undefined)('the dashboard the Chromium suites load', () => {
  it('is a production build: no script of it holds React’s development runtime', () => {
    const scripts = ['assets', 'export'].flatMap((dir) =>
      readdirSync(join(dist, dir))
        .filter((name) => name.endsWith('.js'))
        .map((name) => join(dir, name)),
    );
    expect(scripts.length).toBeGreaterThan(1);
    const development = scripts.filter((path) => readFileSync(join(dist, path), 'utf8').includes(DEVELOPMENT_REACT));
    expect(development).toEqual([]);
  });
});
