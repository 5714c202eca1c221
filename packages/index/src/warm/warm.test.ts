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
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageTree } from '@agentdash/testing/age-tree';
import { dumpIndex } from '@agentdash/testing/dump';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { type AgentIndex, openIndex } from '../index.js';
import { type FileTree, renewedTree, WarmIndex } from './warm.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');
const SESSION = 'f0835e0b-b4c6-4910-817c-346fd7332302';

let dir: string;
let home: string;
let dbPath: string;
let index: AgentIndex;
let project: string;

/**
 * Refreshes that leave a freshness record: the tree aged first, and a second refresh (a folder first seen by a
 * refresh is vouched for by the next one). Then the light connection.
 */
async function refreshed(): Promise<WarmIndex> {
  ageTree(home);
  await index.refresh([home], { freshnessRecord: true });
  await index.refresh([home], { freshnessRecord: true });
  const warm = WarmIndex.open(dbPath);
  if (warm === undefined) throw new Error('no warm index after a refresh');
  return warm;
}

beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-warm-'));
  project = join(home, 'projects', '-home-user-proj-shell');
  dbPath = join(dir, 'index.sqlite');
  index = openIndex({ dbPath });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the freshness pass', () => {
  it('gives back the last refresh report when nothing changed, and nothing before a first refresh', async () => {
    expect(WarmIndex.open(join(dir, 'none.sqlite'))).toBeUndefined();
    ageTree(home);
    const first = await index.refresh([home], { freshnessRecord: true });
    const warm = await refreshed();
    const second = await index.refresh([home], { freshnessRecord: true });
    expect(warm.fresh([home])).toEqual(second);
    expect(second).toMatchObject({ files: first.files, sessions: first.sessions, filesParsed: 0, bytesParsed: 0 });
    // Another set of paths was never refreshed as such.
    expect(warm.fresh([project])).toBeUndefined();
    warm.close();
  });

  it('is left by the first refresh of the paths, whose report counts what it read', async () => {
    ageTree(home);
    const first = await index.refresh([home], { freshnessRecord: true });
    expect(first.filesParsed).toBe(first.files);
    const warm = WarmIndex.open(dbPath);
    expect(warm?.fresh([home])).toEqual({ ...first, filesParsed: 0, bytesParsed: 0, records: 0, newIssues: 0 });
    warm?.close();
  });

  it('leaves a record that sees a file grown while the first refresh read it, and reads only its new line next', async () => {
    ageTree(home);
    const seen: string[] = [];
    const line = `${JSON.stringify({ type: 'user', uuid: 'warm-grown', sessionId: SESSION })}\n`;
    const first = await index.refresh([home], {
      freshnessRecord: true,
      // the first file read grows once the second one is reached
      beforeFile: (file) => {
        seen.push(file);
        if (seen.length === 2) appendFileSync(seen[0] as string, line);
      },
    });
    expect(seen).toHaveLength(first.files);
    expect(first.filesParsed).toBe(first.files);
    const warm = WarmIndex.open(dbPath);
    expect(warm?.check([home])).toEqual({ kind: 'changed', files: [seen[0]] });
    warm?.close();
    const next = await index.refresh([home], { freshnessRecord: true, changedFiles: [seen[0] as string] });
    expect(next.filesParsed).toBe(1);
    // what both refreshes read is in the index once: as many bytes and records as one refresh of the grown home
    const again = openIndex({ dbPath: join(dir, 'fresh.sqlite') });
    try {
      const fresh = await again.refresh([home]);
      expect([first.bytesParsed + next.bytesParsed, first.records + next.records]).toEqual([
        fresh.bytesParsed,
        fresh.records,
      ]);
      expect(index.stats()).toEqual(again.stats());
    } finally {
      again.close();
    }
    const after = WarmIndex.open(dbPath);
    expect(after?.check([home]).kind).toBe('fresh');
    after?.close();
  });

  it('sees a line appended to a transcript', async () => {
    const warm = await refreshed();
    expect(warm.fresh([home])).toBeDefined();
    appendFileSync(join(project, `${SESSION}.jsonl`), `${JSON.stringify({ type: 'user', uuid: 'warm-1' })}\n`);
    expect(warm.fresh([home])).toBeUndefined();
    warm.close();
  });

  it('sees a transcript added to a project, a new project and a new subagents folder', async () => {
    const add = [
      () => writeFileSync(join(project, '11111111-1111-4111-8111-111111111111.jsonl'), ''),
      () => {
        mkdirSync(join(home, 'projects', '-home-user-new'));
        writeFileSync(join(home, 'projects', '-home-user-new', '22222222-2222-4222-8222-222222222222.jsonl'), '');
      },
      () => {
        mkdirSync(join(project, SESSION, 'subagents'), { recursive: true });
        writeFileSync(join(project, SESSION, 'subagents', 'agent-a1.jsonl'), '');
      },
    ];
    for (const change of add) {
      const warm = await refreshed();
      expect(warm.fresh([home])).toBeDefined();
      change();
      expect(warm.fresh([home])).toBeUndefined();
      warm.close();
    }
  });

  // Folders that hold no transcript yet are watched too (every folder discovery lists or looks into): a project
  // folder emptied by Claude Code's cleanup with archiving off, a session folder holding only tool-results/, an empty
  // workflow folder under subagents/, a folder of projects/ that is no project folder yet.
  it('sees a transcript made in an existing folder that holds no transcript yet', async () => {
    const empty = join(home, 'projects', '-home-user-empty');
    const results = join(project, '44444444-4444-4444-8444-444444444444', 'tool-results');
    const workflow = join(project, SESSION, 'subagents', 'workflows', 'w1');
    const notYet = join(home, 'projects', '-home-user-not-yet', '55555555-5555-4555-8555-555555555555');
    for (const folder of [empty, results, workflow, notYet]) mkdirSync(folder, { recursive: true });
    const line = (id: string) => `${JSON.stringify({ type: 'user', uuid: `gap-${id}`, sessionId: id })}\n`;
    const id = '33333333-3333-4333-8333-333333333333';
    const add: [string, string][] = [
      [join(empty, `${id}.jsonl`), line(id)],
      [join(dirname(results), 'subagents', 'agent-a2.jsonl'), line('44444444-4444-4444-8444-444444444444')],
      [join(workflow, 'agent-a3.jsonl'), line(SESSION)],
      [join(notYet, 'subagents', 'agent-a4.jsonl'), line('55555555-5555-4555-8555-555555555555')],
    ];
    ageTree(home);
    await index.refresh([home], { freshnessRecord: true });
    for (const [file, text] of add) {
      // one refresh leaves the record (the first one, then the one that read the file added before)
      const warm = WarmIndex.open(dbPath) as WarmIndex;
      try {
        expect(warm.check([home]).kind, file).toBe('fresh');
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
        expect(warm.check([home]).kind, file).toBe('unknown');
      } finally {
        warm.close();
      }
      // the new file and the folders it changed dated back (the stored files keep their mtimes)
      const then = Date.now() / 1000 - 3600;
      for (const path of [file, dirname(file), dirname(dirname(file))]) utimesSync(path, then, then);
      const report = await index.refresh([home], { freshnessRecord: true });
      expect(report.filesParsed, file).toBe(1);
    }
  });

  it.skipIf(process.platform === 'win32')(
    'leaves no record when a folder cannot be listed, and reports it',
    async () => {
      // A folder that cannot be listed, even by root: a `subagents` link to itself (ELOOP), as a chmod 000 folder is.
      const loop = join(project, SESSION, 'subagents');
      mkdirSync(dirname(loop), { recursive: true });
      symlinkSync(loop, loop);
      ageTree(home);
      const report = await index.refresh([home], { freshnessRecord: true });
      expect(index.refreshProblems().map((p) => p.file)).toContain(loop);
      expect(report.issues).toBeGreaterThan(0);
      const warm = WarmIndex.open(dbPath);
      expect(warm?.check([home]).kind).toBe('unknown');
      warm?.close();
    },
  );

  it('sees a Codex rollout made in an empty day folder and a Gemini chats folder made in a project folder', async () => {
    const fixtures = resolve(here, '../../../core/test/fixtures');
    const codex = join(dir, 'codex-home');
    const gemini = join(dir, 'gemini-home');
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
      await index.refresh([home], { freshnessRecord: true });
      const warm = WarmIndex.open(dbPath);
      try {
        expect(warm?.check([home]).kind, to).toBe('fresh');
        mkdirSync(dirname(to), { recursive: true });
        cpSync(from, to);
        expect(warm?.check([home]).kind, to).toBe('unknown');
      } finally {
        warm?.close();
      }
      expect((await index.refresh([home], { freshnessRecord: true })).filesParsed, to).toBe(1);
    }
  });

  it('sees the first rollout of a Codex home that had none (no adapter recognised it before)', async () => {
    const codex = join(dir, 'new-codex-home');
    const day = join(codex, 'sessions', '2026', '11', '27');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(codex, 'config.toml'), 'model = "gpt-5"\n');
    ageTree(codex);
    const first = await index.refresh([codex], { freshnessRecord: true });
    expect(first.files).toBe(0);
    const warm = WarmIndex.open(dbPath) as WarmIndex;
    try {
      expect(warm.check([codex]).kind).toBe('fresh');
      const fixtures = resolve(here, '../../../core/test/fixtures/codex/0.169.0/codex-home/sessions/2026/11/23');
      const rollout = readdirSync(fixtures)[0] as string;
      cpSync(join(fixtures, rollout), join(day, rollout));
      expect(warm.check([codex]).kind).toBe('unknown');
    } finally {
      warm.close();
    }
    expect((await index.refresh([codex], { freshnessRecord: true })).filesParsed).toBe(1);
  });

  it('sees a transcript removed or replaced', async () => {
    const file = join(project, `${SESSION}.jsonl`);
    let warm = await refreshed();
    const text = readFileSync(file);
    rmSync(file);
    expect(warm.fresh([home])).toBeUndefined();
    warm.close();
    writeFileSync(file, text);
    warm = await refreshed();
    expect(warm.fresh([home])).toBeDefined();
    // Same size, mtime and folder mtime: only the inode tells (a file replaced by a rename).
    const { mtime } = statSync(file);
    const folder = statSync(project);
    writeFileSync(`${file}.new`, text);
    utimesSync(`${file}.new`, mtime, mtime);
    renameSync(`${file}.new`, file);
    utimesSync(project, folder.atime, folder.mtime);
    expect(warm.fresh([home])).toBeUndefined();
    warm.close();
  });

  it('does not vouch for folders changed just before the refresh (coarse mtimes)', async () => {
    ageTree(home);
    await index.refresh([home], { freshnessRecord: true });
    utimesSync(project, new Date(), new Date());
    await index.refresh([home], { freshnessRecord: true });
    const warm = WarmIndex.open(dbPath);
    expect(warm?.fresh([home])).toBeUndefined();
    warm?.close();
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('sees a transcript made unreadable', async () => {
    const warm = await refreshed();
    const file = join(project, `${SESSION}.jsonl`);
    chmodSync(file, 0o000);
    try {
      expect(warm.fresh([home])).toBeUndefined();
    } finally {
      chmodSync(file, 0o644);
      warm.close();
    }
  });

  it('is no longer valid after any refresh wrote anything (one without a record too), or with archiving off', async () => {
    const warm = await refreshed();
    expect(warm.fresh([home])).toBeDefined();
    expect(warm.fresh([home], { archive: false })).toBeUndefined();
    const other = join(dir, 'other-home');
    cpSync(samples, other, { recursive: true });
    await index.refresh([other]);
    expect(warm.fresh([home])).toBeUndefined();
    warm.close();
  });
});

describe('a refresh of the files that grew', () => {
  it('reads only their folders, stores what a full refresh stores, and renews the record', async () => {
    const otherDb = join(dir, 'full.sqlite');
    const other = openIndex({ dbPath: otherDb });
    try {
      const warm = await refreshed();
      await other.refresh([home]);
      const subagents = join(home, 'projects', '-home-user-proj-subagents');
      const grown = [join(project, `${SESSION}.jsonl`), join(subagents, 'agent-ae0b871.jsonl')];
      for (const [i, file] of grown.entries()) {
        const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '{}');
        const line = {
          ...last,
          uuid: `warm-grown-${i}`,
          parentUuid: last.uuid,
          message: { role: 'user', content: 'more' },
        };
        appendFileSync(file, `${JSON.stringify({ ...line, type: 'user' })}\n`);
      }
      const checked = warm.check([home]);
      expect(checked.kind === 'changed' ? [...checked.files].sort() : checked).toEqual([...grown].sort());
      if (checked.kind !== 'changed') return;

      const read = new Set<string>();
      const report = await index.refresh([home], {
        freshnessRecord: true,
        changedFiles: checked.files,
        onProgress: (p) => {
          if (p.file !== '') read.add(dirname(p.file));
        },
      });
      const full = await other.refresh([home]);
      // Only the two folders were listed and read; the figures are those of the whole home.
      expect([...read].filter((d) => d !== project && d !== subagents && !d.startsWith(`${subagents}/`))).toEqual([]);
      expect(read.has(project) && read.has(subagents)).toBe(true);
      expect(report).toEqual({ ...full, files: full.files });
      expect(report).toMatchObject({ filesParsed: 2, records: 2 });
      expect(dumpIndex(dbPath)).toEqual(dumpIndex(otherDb));
      // The record is renewed: the next pass finds nothing changed, and says so with the same figures.
      expect(warm.check([home])).toEqual({
        kind: 'fresh',
        report: { ...report, filesParsed: 0, bytesParsed: 0, records: 0, newIssues: 0 },
      });
      warm.close();
    } finally {
      other.close();
    }
  });

  it('renews the record as a full refresh writes it, so that a later append anywhere is seen', async () => {
    /** The stored freshness record of the home, its files as a map (the order of folders may differ). */
    const recordOf = () => {
      const db = new Database(dbPath, { readonly: true });
      try {
        const rows = db.prepare("SELECT key, value FROM warm_state WHERE key LIKE 'fresh:%'").all() as {
          key: string;
          value: string;
        }[];
        expect(rows).toHaveLength(1);
        const { files, ...rest } = JSON.parse(rows[0]?.value ?? '{}') as { files: (string | (string | number)[])[] };
        const byPath: Record<string, unknown> = {};
        for (let d = 0; d < files.length; d += 2) {
          const entries = files[d + 1] as (string | number)[];
          for (let i = 0; i < entries.length; i += 4) {
            byPath[join(files[d] as string, entries[i] as string)] = entries.slice(i + 1, i + 4);
          }
        }
        return { ...rest, files: byPath };
      } finally {
        db.close();
      }
    };
    const warm = await refreshed();
    const grown = join(project, `${SESSION}.jsonl`);
    const line = (uuid: string) => `${JSON.stringify({ type: 'user', uuid, sessionId: SESSION })}\n`;
    appendFileSync(grown, line('warm-renew-1'));
    const checked = warm.check([home]);
    expect(checked).toEqual({ kind: 'changed', files: [grown] });
    await index.refresh([home], { freshnessRecord: true, changedFiles: [grown] });
    const renewed = recordOf();
    expect(warm.check([home]).kind).toBe('fresh');
    // A full refresh that reads nothing writes the record from every stored file: the same one.
    await index.refresh([home], { freshnessRecord: true });
    expect(recordOf()).toEqual(renewed);
    // Another file, appended now, is seen (its entry was kept as it was).
    const other = join(home, 'projects', '-home-user-proj-subagents', 'agent-ae0b871.jsonl');
    appendFileSync(other, line('warm-renew-2'));
    expect(warm.check([home])).toEqual({ kind: 'changed', files: [other] });
    warm.close();
  });

  it('is a full refresh when a file came or went after the pass of stats (another folder changed)', async () => {
    const warm = await refreshed();
    const grown = join(project, `${SESSION}.jsonl`);
    appendFileSync(grown, `${JSON.stringify({ type: 'user', uuid: 'warm-race', sessionId: SESSION })}\n`);
    const checked = warm.check([home]);
    expect(checked).toEqual({ kind: 'changed', files: [grown] });
    // Between the pass and the refresh, a new session appears in another project.
    const other = join(home, 'projects', '-home-user-proj-api', '22222222-2222-4222-8222-222222222222.jsonl');
    writeFileSync(
      other,
      `${JSON.stringify({ type: 'user', uuid: 'new-1', sessionId: '22222222-2222-4222-8222-222222222222', message: { role: 'user', content: 'hi' } })}\n`,
    );
    const before = index.listSessions().length;
    const report = await index.refresh([home], {
      freshnessRecord: true,
      changedFiles: checked.kind === 'changed' ? checked.files : [],
    });
    expect(report.filesParsed).toBe(2);
    expect(index.listSessions().length).toBe(before + 1);
    warm.close();
  });

  it('reads nothing outside the paths when they are narrower than the project folder (a Codex day)', async () => {
    const codex = join(dir, 'codex-home');
    cpSync(resolve(here, '../../../core/test/fixtures/codex/0.169.0/codex-home'), codex, { recursive: true });
    const day = join(codex, 'sessions', '2026', '11', '23');
    const [moved, grown] = readdirSync(day).filter((name) => name.endsWith('.jsonl'));
    if (moved === undefined || grown === undefined) throw new Error('the Codex fixture has fewer than two rollouts');
    // Another day's rollout: under the sessions root (the rollouts' project folder), not under the day indexed.
    mkdirSync(join(codex, 'sessions', '2026', '11', '24'));
    renameSync(join(day, moved), join(codex, 'sessions', '2026', '11', '24', moved));
    ageTree(codex);
    await index.refresh([day], { freshnessRecord: true });
    const first = await index.refresh([day], { freshnessRecord: true });
    const warm = WarmIndex.open(dbPath);
    const file = join(day, grown);
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '{}';
    appendFileSync(file, `${last}\n`);
    const checked = warm?.check([day]);
    expect(checked).toEqual({ kind: 'changed', files: [file] });
    const report = await index.refresh([day], {
      freshnessRecord: true,
      changedFiles: checked?.kind === 'changed' ? checked.files : [],
    });
    expect(report).toMatchObject({ files: first.files, filesParsed: 1, sessions: first.sessions });
    expect(index.listSessions()).toHaveLength(first.sessions);
    warm?.close();
  });

  it('is a full refresh when a changed file is not stored (its folder gone or never indexed)', async () => {
    await refreshed();
    const report = await index.refresh([home], {
      freshnessRecord: true,
      changedFiles: [join(home, 'projects', 'no-such-folder', 'x.jsonl')],
    });
    expect(report.filesParsed).toBe(0);
    expect(report.files).toBeGreaterThan(10);
  });
});

describe('the freshness record', () => {
  it('is not used once the files table was emptied without a refresh (as a migration that resets data does)', async () => {
    const warm = await refreshed();
    expect(warm.fresh([home])).toBeDefined();
    warm.close();
    const raw = new Database(dbPath);
    raw.exec('DELETE FROM files');
    raw.close();
    const after = WarmIndex.open(dbPath);
    expect(after?.fresh([home])).toBeUndefined();
    after?.close();
  });

  it('sees every file of a folder that holds several, each appended in turn', async () => {
    const files = [join(project, `${SESSION}.jsonl`)];
    for (const n of [3, 4, 5]) {
      const file = join(
        project,
        `${String(n).repeat(8)}-${String(n).repeat(4)}-4${String(n).repeat(3)}-8${String(n).repeat(3)}-${String(n).repeat(12)}.jsonl`,
      );
      writeFileSync(file, `${JSON.stringify({ type: 'user', uuid: `warm-${n}` })}\n`);
      files.push(file);
    }
    for (const file of files) {
      const warm = await refreshed();
      expect(warm.fresh([home])).toBeDefined();
      appendFileSync(file, `${JSON.stringify({ type: 'user', uuid: `warm-${file.length}` })}\n`);
      expect(warm.fresh([home])).toBeUndefined();
      warm.close();
    }
  });
});

describe('stored answers', () => {
  it('are given back at the generation they were computed at, and dropped once anything is indexed', async () => {
    const warm = await refreshed();
    const generation = warm.generation();
    expect(generation).toBeGreaterThan(0);
    expect(warm.answer('stats')).toBeUndefined();
    warm.saveAnswer('stats', generation ?? 0, index.stats({ paths: [home] }));
    expect(warm.answer('stats')).toEqual(JSON.parse(JSON.stringify(index.stats({ paths: [home] }))));
    appendFileSync(
      join(project, `${SESSION}.jsonl`),
      `${JSON.stringify({ type: 'user', uuid: 'warm-2', sessionId: SESSION, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'more' } })}\n`,
    );
    await index.refresh([home], { freshnessRecord: true });
    expect(warm.generation()).toBeGreaterThan(generation ?? 0);
    expect(warm.answer('stats')).toBeUndefined();
    warm.close();
  });
});

describe('renewedTree', () => {
  const p = (...parts: string[]) => join('/h', 'projects', ...parts);
  const tree: FileTree = [
    p('a'),
    ['s1.jsonl', 10, 1, 11, 's2.jsonl', 20, 2, 12],
    p('a', 's1', 'subagents'),
    ['agent-x.jsonl', 5, 3, 13],
    p('b'),
    ['s3.jsonl', 30, 4, 14, 's4.jsonl', 40, 5, 15],
    p('c'),
    ['s5.jsonl', 50, 6, 16],
  ];

  it("replaces a refreshed folder's files, nested folders included, and keeps the others as they were", () => {
    const fresh: FileTree = [p('a'), ['s1.jsonl', 99, 9, 11], p('a', 's1', 'subagents'), ['agent-y.jsonl', 7, 7, 17]];
    expect(renewedTree(tree, [p('a')], fresh)).toEqual([
      p('b'),
      ['s3.jsonl', 30, 4, 14, 's4.jsonl', 40, 5, 15],
      p('c'),
      ['s5.jsonl', 50, 6, 16],
      p('a'),
      ['s1.jsonl', 99, 9, 11],
      p('a', 's1', 'subagents'),
      ['agent-y.jsonl', 7, 7, 17],
    ]);
    // a folder whose files are all gone leaves no entry
    expect(renewedTree(tree, [p('c')], [])).toEqual(tree.slice(0, 6));
  });

  it('replaces one file refreshed on its own within its folder', () => {
    expect(renewedTree(tree, [p('b', 's3.jsonl')], [p('b'), ['s3.jsonl', 31, 8, 14]])).toEqual([
      ...tree.slice(0, 4),
      p('b'),
      ['s4.jsonl', 40, 5, 15, 's3.jsonl', 31, 8, 14],
      ...tree.slice(6),
    ]);
  });
});
