import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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

describe('discovery meeting a folder it cannot look into', () => {
  it.skipIf(process.platform === 'win32')(
    'still finds the other projects, and reports the folder of a session it cannot look into',
    async () => {
      const projects = join(dir, 'projects');
      const ok = join(projects, '-home-u-ok');
      mkdirSync(ok, { recursive: true });
      writeFileSync(join(ok, '11111111-1111-4111-8111-111111111111.jsonl'), '{}\n');
      // `stat(<folder>/subagents)` fails for these (ELOOP, as EACCES does for a folder without permission), even as root
      const looped = join(projects, '-home-u-looped');
      mkdirSync(looped);
      symlinkSync(join(looped, 'subagents'), join(looped, 'subagents'));
      const session = join(projects, '-home-u-sessions-only', '22222222-2222-4222-8222-222222222222');
      mkdirSync(session, { recursive: true });
      symlinkSync(join(session, 'subagents'), join(session, 'subagents'));
      const { files, issues } = await discoverFiles([dir]);
      expect(files.map((f) => f.path)).toEqual([join(ok, '11111111-1111-4111-8111-111111111111.jsonl')]);
      expect(issues.map((i) => [i.code, i.file])).toEqual([['unreadable_file', session]]);
    },
  );
});
