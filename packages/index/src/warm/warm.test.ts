import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageTree } from '@agentdash/testing/age-tree';
import { describe, expect, it } from 'vitest';
import { refreshed, useWarmHome } from '../../test/warm-home.js';
import { openIndex } from '../index.js';
import { WarmIndex } from './warm.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');
const SESSION = 'f0835e0b-b4c6-4910-817c-346fd7332302';

const w = useWarmHome();

describe('the freshness pass', () => {
  it('gives back the last refresh report when nothing changed, and nothing before a first refresh', async () => {
    expect(WarmIndex.open(join(w.dir, 'none.sqlite'))).toBeUndefined();
    ageTree(w.home);
    const first = await w.index.refresh([w.home], { freshnessRecord: true });
    const warm = await refreshed(w);
    const second = await w.index.refresh([w.home], { freshnessRecord: true });
    expect(warm.fresh([w.home])).toEqual(second);
    expect(second).toMatchObject({ files: first.files, sessions: first.sessions, filesParsed: 0, bytesParsed: 0 });
    // Another set of paths was never refreshed as such.
    expect(warm.fresh([w.project])).toBeUndefined();
    warm.close();
  });

  it('is left by the first refresh of the paths, whose report counts what it read', async () => {
    ageTree(w.home);
    const first = await w.index.refresh([w.home], { freshnessRecord: true });
    expect(first.filesParsed).toBe(first.files);
    const warm = WarmIndex.open(w.dbPath);
    expect(warm?.fresh([w.home])).toEqual({ ...first, filesParsed: 0, bytesParsed: 0, records: 0, newIssues: 0 });
    warm?.close();
  });

  it('leaves a record that sees a file grown while the first refresh read it, and reads only its new line next', async () => {
    ageTree(w.home);
    const seen: string[] = [];
    const line = `${JSON.stringify({ type: 'user', uuid: 'warm-grown', sessionId: SESSION })}\n`;
    const first = await w.index.refresh([w.home], {
      freshnessRecord: true,
      // the first file read grows once the second one is reached
      beforeFile: (file) => {
        seen.push(file);
        if (seen.length === 2) appendFileSync(seen[0] as string, line);
      },
    });
    expect(seen).toHaveLength(first.files);
    expect(first.filesParsed).toBe(first.files);
    const warm = WarmIndex.open(w.dbPath);
    expect(warm?.check([w.home])).toEqual({ kind: 'changed', files: [seen[0]] });
    warm?.close();
    const next = await w.index.refresh([w.home], { freshnessRecord: true, changedFiles: [seen[0] as string] });
    expect(next.filesParsed).toBe(1);
    // what both refreshes read is in the index once: as many bytes and records as one refresh of the grown home
    const again = openIndex({ dbPath: join(w.dir, 'fresh.sqlite') });
    try {
      const fresh = await again.refresh([w.home]);
      expect([first.bytesParsed + next.bytesParsed, first.records + next.records]).toEqual([
        fresh.bytesParsed,
        fresh.records,
      ]);
      expect(w.index.stats()).toEqual(again.stats());
    } finally {
      again.close();
    }
    const after = WarmIndex.open(w.dbPath);
    expect(after?.check([w.home]).kind).toBe('fresh');
    after?.close();
  });

  it('sees a line appended to a transcript', async () => {
    const warm = await refreshed(w);
    expect(warm.fresh([w.home])).toBeDefined();
    appendFileSync(join(w.project, `${SESSION}.jsonl`), `${JSON.stringify({ type: 'user', uuid: 'warm-1' })}\n`);
    expect(warm.fresh([w.home])).toBeUndefined();
    warm.close();
  });

  it('sees a transcript cut short in place, its mtime and its folder as they were', async () => {
    const file = join(w.project, `${SESSION}.jsonl`);
    const warm = await refreshed(w);
    expect(warm.check([w.home]).kind).toBe('fresh');
    const { atime, mtime, ino } = statSync(file);
    truncateSync(file, statSync(file).size - 1);
    utimesSync(file, atime, mtime);
    expect(statSync(file).ino).toBe(ino);
    expect(warm.check([w.home])).toEqual({ kind: 'changed', files: [file] });
    warm.close();
  });

  it('sees a transcript added to a project, a new project and a new subagents folder', async () => {
    const add = [
      () => writeFileSync(join(w.project, '11111111-1111-4111-8111-111111111111.jsonl'), ''),
      () => {
        mkdirSync(join(w.home, 'projects', '-home-user-new'));
        writeFileSync(join(w.home, 'projects', '-home-user-new', '22222222-2222-4222-8222-222222222222.jsonl'), '');
      },
      () => {
        mkdirSync(join(w.project, SESSION, 'subagents'), { recursive: true });
        writeFileSync(join(w.project, SESSION, 'subagents', 'agent-a1.jsonl'), '');
      },
    ];
    for (const change of add) {
      const warm = await refreshed(w);
      expect(warm.fresh([w.home])).toBeDefined();
      change();
      expect(warm.fresh([w.home])).toBeUndefined();
      warm.close();
    }
  });

  // Folders that hold no transcript yet are watched too (every folder discovery lists or looks into): a project
  // folder emptied by Claude Code's cleanup with archiving off, a session folder holding only tool-results/, an empty
  // workflow folder under subagents/, a folder of projects/ that is no project folder yet.
  it('sees a transcript made in an existing folder that holds no transcript yet', async () => {
    const empty = join(w.home, 'projects', '-home-user-empty');
    const results = join(w.project, '44444444-4444-4444-8444-444444444444', 'tool-results');
    const workflow = join(w.project, SESSION, 'subagents', 'workflows', 'w1');
    const notYet = join(w.home, 'projects', '-home-user-not-yet', '55555555-5555-4555-8555-555555555555');
    for (const folder of [empty, results, workflow, notYet]) mkdirSync(folder, { recursive: true });
    const line = (id: string) => `${JSON.stringify({ type: 'user', uuid: `gap-${id}`, sessionId: id })}\n`;
    const id = '33333333-3333-4333-8333-333333333333';
    const add: [string, string][] = [
      [join(empty, `${id}.jsonl`), line(id)],
      [join(dirname(results), 'subagents', 'agent-a2.jsonl'), line('44444444-4444-4444-8444-444444444444')],
      [join(workflow, 'agent-a3.jsonl'), line(SESSION)],
      [join(notYet, 'subagents', 'agent-a4.jsonl'), line('55555555-5555-4555-8555-555555555555')],
    ];
    ageTree(w.home);
    await w.index.refresh([w.home], { freshnessRecord: true });
    for (const [file, text] of add) {
      // one refresh leaves the record (the first one, then the one that read the file added before)
      const warm = WarmIndex.open(w.dbPath) as WarmIndex;
      try {
        expect(warm.check([w.home]).kind, file).toBe('fresh');
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
        expect(warm.check([w.home]).kind, file).toBe('unknown');
      } finally {
        warm.close();
      }
      // the new file and the folders it changed dated back (the stored files keep their mtimes)
      const then = Date.now() / 1000 - 3600;
      for (const path of [file, dirname(file), dirname(dirname(file))]) utimesSync(path, then, then);
      const report = await w.index.refresh([w.home], { freshnessRecord: true });
      expect(report.filesParsed, file).toBe(1);
    }
  });

  it.skipIf(process.platform === 'win32')(
    'leaves no record when a folder cannot be listed, and reports it',
    async () => {
      // A folder that cannot be listed, even by root: a `subagents` link to itself (ELOOP), as a chmod 000 folder is.
      const loop = join(w.project, SESSION, 'subagents');
      mkdirSync(dirname(loop), { recursive: true });
      symlinkSync(loop, loop);
      ageTree(w.home);
      const report = await w.index.refresh([w.home], { freshnessRecord: true });
      expect(w.index.refreshProblems().map((p) => p.file)).toContain(loop);
      expect(report.issues).toBeGreaterThan(0);
      const warm = WarmIndex.open(w.dbPath);
      expect(warm?.check([w.home]).kind).toBe('unknown');
      warm?.close();
    },
  );

  it('sees a Codex rollout made in an empty day folder and a Gemini chats folder made in a project folder', async () => {
    const fixtures = resolve(here, '../../../core/test/fixtures');
    const codex = join(w.dir, 'codex-home');
    const gemini = join(w.dir, 'gemini-home');
    cpSync(join(fixtures, 'codex/0.169.0/codex-home'), codex, { recursive: true });
    cpSync(join(fixtures, 'gemini/0.61.0/.gemini'), gemini, { recursive: true });
    const day = join(codex, 'sessions', '2026', '11', '24');
    const project = join(gemini, 'tmp', 'new-project');
    mkdirSync(day, { recursive: true });
    mkdirSync(project);
    const rollout = readdirSync(join(codex, 'sessions', '2026', '11', '23'))[0] as string;
    const chat = readdirSync(join(gemini, 'tmp', 'edit', 'chats'))[0] as string;
    const add: [string, string][] = [
      [join(codex, 'sessions', '2026', '11', '23', rollout), join(day, rollout.replace('01a2', '11a2'))],
      [join(gemini, 'tmp', 'edit', 'chats', chat), join(project, 'chats', chat)],
    ];
    for (const [from, to] of add) {
      const home = dirname(dirname(to)).startsWith(gemini) ? gemini : codex;
      ageTree(home);
      await w.index.refresh([home], { freshnessRecord: true });
      const warm = WarmIndex.open(w.dbPath);
      try {
        expect(warm?.check([home]).kind, to).toBe('fresh');
        mkdirSync(dirname(to), { recursive: true });
        cpSync(from, to);
        expect(warm?.check([home]).kind, to).toBe('unknown');
      } finally {
        warm?.close();
      }
      expect((await w.index.refresh([home], { freshnessRecord: true })).filesParsed, to).toBe(1);
    }
  });

  it('sees the first rollout of a Codex home that had none (no adapter recognised it before)', async () => {
    const codex = join(w.dir, 'new-codex-home');
    const day = join(codex, 'sessions', '2026', '11', '27');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(codex, 'config.toml'), 'model = "gpt-5"\n');
    ageTree(codex);
    const first = await w.index.refresh([codex], { freshnessRecord: true });
    expect(first.files).toBe(0);
    const warm = WarmIndex.open(w.dbPath) as WarmIndex;
    try {
      expect(warm.check([codex]).kind).toBe('fresh');
      const fixtures = resolve(here, '../../../core/test/fixtures/codex/0.169.0/codex-home/sessions/2026/11/23');
      const rollout = readdirSync(fixtures)[0] as string;
      cpSync(join(fixtures, rollout), join(day, rollout));
      expect(warm.check([codex]).kind).toBe('unknown');
    } finally {
      warm.close();
    }
    expect((await w.index.refresh([codex], { freshnessRecord: true })).filesParsed).toBe(1);
  });

  it('sees a transcript removed or replaced', async () => {
    const file = join(w.project, `${SESSION}.jsonl`);
    let warm = await refreshed(w);
    const text = readFileSync(file);
    rmSync(file);
    expect(warm.fresh([w.home])).toBeUndefined();
    warm.close();
    writeFileSync(file, text);
    warm = await refreshed(w);
    expect(warm.fresh([w.home])).toBeDefined();
    // Same size, mtime and folder mtime: only the inode tells (a file replaced by a rename).
    const { mtime } = statSync(file);
    const folder = statSync(w.project);
    writeFileSync(`${file}.new`, text);
    utimesSync(`${file}.new`, mtime, mtime);
    renameSync(`${file}.new`, file);
    utimesSync(w.project, folder.atime, folder.mtime);
    expect(warm.fresh([w.home])).toBeUndefined();
    warm.close();
  });

  it('does not vouch for folders changed just before the refresh (coarse mtimes)', async () => {
    ageTree(w.home);
    await w.index.refresh([w.home], { freshnessRecord: true });
    utimesSync(w.project, new Date(), new Date());
    await w.index.refresh([w.home], { freshnessRecord: true });
    const warm = WarmIndex.open(w.dbPath);
    expect(warm?.fresh([w.home])).toBeUndefined();
    warm?.close();
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('sees a transcript made unreadable', async () => {
    const warm = await refreshed(w);
    const file = join(w.project, `${SESSION}.jsonl`);
    chmodSync(file, 0o000);
    try {
      expect(warm.fresh([w.home])).toBeUndefined();
    } finally {
      chmodSync(file, 0o644);
      warm.close();
    }
  });

  it('is no longer valid after any refresh wrote anything (one without a record too), or with archiving off', async () => {
    const warm = await refreshed(w);
    expect(warm.fresh([w.home])).toBeDefined();
    expect(warm.fresh([w.home], { archive: false })).toBeUndefined();
    const other = join(w.dir, 'other-home');
    cpSync(samples, other, { recursive: true });
    await w.index.refresh([other]);
    expect(warm.fresh([w.home])).toBeUndefined();
    warm.close();
  });
});
