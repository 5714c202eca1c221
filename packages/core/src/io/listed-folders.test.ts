import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverFiles } from './discover.js';
import { listFolder, mergeListed, noteFolder } from './listed-folders.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-listed-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('listed folders', () => {
  it('keep the older mtime of a folder listed twice (the newer could vouch for a listing that missed a file)', () => {
    expect(
      mergeListed([
        [
          ['/a', 20],
          ['/b', 5],
        ],
        [
          ['/a', 10],
          ['/c', 7],
        ],
        [['/a', 30]],
      ]),
    ).toEqual([
      ['/a', 10],
      ['/b', 5],
      ['/c', 7],
    ]);
  });

  it('note the mtime a folder had before it was listed, and nothing for a path that is no folder', () => {
    const folder = join(dir, 'f');
    mkdirSync(folder);
    utimesSync(folder, 1_000, 1_000);
    const listed: (readonly [string, number])[] = [];
    expect(listFolder(folder, listed)).toEqual([]);
    noteFolder(join(dir, 'missing'), listed);
    writeFileSync(join(dir, 'file'), '');
    noteFolder(join(dir, 'file'), listed);
    expect(listed).toEqual([[folder, 1_000_000]]);
    expect(() => listFolder(join(dir, 'missing'), listed)).toThrow();
    expect(listed).toHaveLength(1);
  });

  it('are every folder Claude Code discovery decided from, those that hold no transcript yet too', async () => {
    const projects = join(dir, 'projects');
    const project = join(projects, '-home-u-p');
    const session = join(project, '11111111-1111-4111-8111-111111111111');
    for (const folder of [
      join(projects, '-home-u-empty'),
      join(session, 'tool-results'),
      join(session, 'subagents', 'workflows', 'w1'),
      join(projects, '-home-u-other', 'memory'),
    ]) {
      mkdirSync(folder, { recursive: true });
    }
    writeFileSync(join(project, '11111111-1111-4111-8111-111111111111.jsonl'), '{}\n');
    const { folders } = await discoverFiles([dir]);
    const listed = new Map(folders);
    for (const folder of [
      dir,
      projects,
      project,
      session,
      join(session, 'subagents'),
      join(session, 'subagents', 'workflows'),
      join(session, 'subagents', 'workflows', 'w1'),
      join(projects, '-home-u-empty'),
      join(projects, '-home-u-other'),
      join(projects, '-home-u-other', 'memory'),
    ]) {
      expect(listed.get(folder), folder).toBe(statSync(folder).mtimeMs);
    }
    // tool-results/ is not looked into: nothing found there would be a transcript
    expect(listed.has(join(session, 'tool-results'))).toBe(false);
  });
});
