import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStat, fileStatFromBinding } from './file-stat.js';

const src = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Every file and folder under `dir` (node_modules left out). */
function entries(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? (e.name === 'node_modules' ? [] : [path, ...entries(path)]) : [path];
  });
}

describe('fileStat', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'agentdash-file-stat-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("reads Node 20's numbers from the fs binding, and statSync's elsewhere", () => {
    expect(fileStat(src)).toBeDefined();
    expect(fileStatFromBinding()).toBe(process.versions.node.startsWith('20.'));
  });

  it('gives what statSync gives for every file and folder of this package, a link, and an odd mtime', () => {
    const odd = join(tmp, 'odd');
    writeFileSync(odd, 'x');
    // a time whose milliseconds have a fraction (nanoseconds kept by the file system)
    utimesSync(odd, 1_700_000_000.123456, 1_700_000_000.987654);
    symlinkSync(odd, join(tmp, 'link'));
    const paths = [...entries(src), odd, join(tmp, 'link'), tmp];
    expect(paths.length).toBeGreaterThan(200);
    const differ = paths.filter((path) => {
      const s = statSync(path);
      const mine = fileStat(path);
      return (
        JSON.stringify(mine) !==
        JSON.stringify({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, uid: s.uid, mode: s.mode })
      );
    });
    expect(differ).toEqual([]);
  });

  it('is undefined for a missing path, and else answers or throws as statSync without throwIfNoEntry does', () => {
    expect(fileStat(join(tmp, 'missing'))).toBeUndefined();
    expect(fileStat(join(tmp, 'missing', 'below'))).toBeUndefined();
    writeFileSync(join(tmp, 'file'), '');
    // A file used as a folder: Node 20 throws ENOTDIR there, later versions answer undefined.
    const outcome = (stat: () => unknown) => {
      try {
        return stat() === undefined ? 'undefined' : 'found';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    };
    const below = join(tmp, 'file', 'below');
    const expected = outcome(() => statSync(below, { throwIfNoEntry: false }));
    expect(['ENOTDIR', 'undefined']).toContain(expected);
    expect(outcome(() => fileStat(below))).toBe(expected);
  });
});
