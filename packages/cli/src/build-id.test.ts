import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIdAt } from './build-id.js';

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** A checkout's layout: packages/cli (its dist/ and package.json) beside packages/core's dist/. */
function checkout(): { cliDist: string; coreStamp: string } {
  root = mkdtempSync(join(tmpdir(), 'agentdash-build-id-'));
  const cliDist = join(root, 'packages/cli/dist');
  mkdirSync(cliDist, { recursive: true });
  writeFileSync(join(root, 'packages/cli/package.json'), '{"version":"0.1.0"}');
  writeFileSync(join(cliDist, 'bin.js'), 'export {};\n');
  const coreStamp = join(root, 'packages/core/dist/.tsbuildinfo');
  mkdirSync(join(root, 'packages/core/dist'), { recursive: true });
  writeFileSync(coreStamp, '{}');
  return { cliDist, coreStamp };
}

describe('buildIdAt', () => {
  it("changes when another workspace's dist is built again, the CLI's own files untouched", () => {
    const { cliDist, coreStamp } = checkout();
    const before = buildIdAt(cliDist);
    expect(buildIdAt(cliDist)).toBe(before);
    const later = new Date(Date.now() + 60_000);
    utimesSync(coreStamp, later, later);
    // Before: only the CLI's own folder counted, and a rebuilt core was answered from the old one's output.
    expect(buildIdAt(cliDist)).not.toBe(before);
  });

  it("changes with the CLI's own files, and stays without the other workspaces (an installed package)", () => {
    const { cliDist, coreStamp } = checkout();
    rmSync(coreStamp);
    const before = buildIdAt(cliDist);
    writeFileSync(join(cliDist, 'bin.js'), 'export const changed = 1;\n');
    expect(buildIdAt(cliDist)).not.toBe(before);
  });
});
