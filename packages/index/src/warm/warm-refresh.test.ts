import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageTree } from '@agentdash/testing/age-tree';
import { dumpIndex } from '@agentdash/testing/dump';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { refreshed, useWarmHome } from '../../test/warm-home.js';
import { openIndex } from '../index.js';
import { type FileTree, renewedTree, WarmIndex } from './warm.js';

const here = dirname(fileURLToPath(import.meta.url));
const SESSION = 'f0835e0b-b4c6-4910-817c-346fd7332302';

const w = useWarmHome();

describe('a refresh of the files that grew', () => {
  it('reads only their folders, stores what a full refresh stores, and renews the record', async () => {
    const otherDb = join(w.dir, 'full.sqlite');
    const other = openIndex({ dbPath: otherDb });
    try {
      const warm = await refreshed(w);
      await other.refresh([w.home]);
      const subagents = join(w.home, 'projects', '-home-user-proj-subagents');
      const grown = [join(w.project, `${SESSION}.jsonl`), join(subagents, 'agent-ae0b871.jsonl')];
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
      const checked = warm.check([w.home]);
      expect(checked.kind === 'changed' ? [...checked.files].sort() : checked).toEqual([...grown].sort());
      if (checked.kind !== 'changed') return;

      const read = new Set<string>();
      const report = await w.index.refresh([w.home], {
        freshnessRecord: true,
        changedFiles: checked.files,
        onProgress: (p) => {
          if (p.file !== '') read.add(dirname(p.file));
        },
      });
      const full = await other.refresh([w.home]);
      // Only the two folders were listed and read; the figures are those of the whole home.
      expect([...read].filter((d) => d !== w.project && d !== subagents && !d.startsWith(`${subagents}/`))).toEqual([]);
      expect(read.has(w.project) && read.has(subagents)).toBe(true);
      expect(report).toEqual({ ...full, files: full.files });
      expect(report).toMatchObject({ filesParsed: 2, records: 2 });
      expect(dumpIndex(w.dbPath)).toEqual(dumpIndex(otherDb));
      // The record is renewed: the next pass finds nothing changed, and says so with the same figures.
      expect(warm.check([w.home])).toEqual({
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
      const db = new Database(w.dbPath, { readonly: true });
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
    const warm = await refreshed(w);
    const grown = join(w.project, `${SESSION}.jsonl`);
    const line = (uuid: string) => `${JSON.stringify({ type: 'user', uuid, sessionId: SESSION })}\n`;
    appendFileSync(grown, line('warm-renew-1'));
    const checked = warm.check([w.home]);
    expect(checked).toEqual({ kind: 'changed', files: [grown] });
    await w.index.refresh([w.home], { freshnessRecord: true, changedFiles: [grown] });
    const renewed = recordOf();
    expect(warm.check([w.home]).kind).toBe('fresh');
    // A full refresh that reads nothing writes the record from every stored file: the same one.
    await w.index.refresh([w.home], { freshnessRecord: true });
    expect(recordOf()).toEqual(renewed);
    // Another file, appended now, is seen (its entry was kept as it was).
    const other = join(w.home, 'projects', '-home-user-proj-subagents', 'agent-ae0b871.jsonl');
    appendFileSync(other, line('warm-renew-2'));
    expect(warm.check([w.home])).toEqual({ kind: 'changed', files: [other] });
    warm.close();
  });

  it('is a full refresh when a file came or went after the pass of stats (another folder changed)', async () => {
    const warm = await refreshed(w);
    const grown = join(w.project, `${SESSION}.jsonl`);
    appendFileSync(grown, `${JSON.stringify({ type: 'user', uuid: 'warm-race', sessionId: SESSION })}\n`);
    const checked = warm.check([w.home]);
    expect(checked).toEqual({ kind: 'changed', files: [grown] });
    // Between the pass and the refresh, a new session appears in another project.
    const other = join(w.home, 'projects', '-home-user-proj-api', '22222222-2222-4222-8222-222222222222.jsonl');
    writeFileSync(
      other,
      `${JSON.stringify({ type: 'user', uuid: 'new-1', sessionId: '22222222-2222-4222-8222-222222222222', message: { role: 'user', content: 'hi' } })}\n`,
    );
    const before = w.index.listSessions().length;
    const report = await w.index.refresh([w.home], {
      freshnessRecord: true,
      changedFiles: checked.kind === 'changed' ? checked.files : [],
    });
    expect(report.filesParsed).toBe(2);
    expect(w.index.listSessions().length).toBe(before + 1);
    warm.close();
  });

  it('reads nothing outside the paths when they are narrower than the project folder (a Codex day)', async () => {
    const codex = join(w.dir, 'codex-home');
    cpSync(resolve(here, '../../../core/test/fixtures/codex/0.169.0/codex-home'), codex, { recursive: true });
    const day = join(codex, 'sessions', '2026', '11', '23');
    const [moved, grown] = readdirSync(day).filter((name) => name.endsWith('.jsonl'));
    if (moved === undefined || grown === undefined) throw new Error('the Codex fixture has fewer than two rollouts');
    // Another day's rollout: under the sessions root (the rollouts' project folder), not under the day indexed.
    mkdirSync(join(codex, 'sessions', '2026', '11', '24'));
    renameSync(join(day, moved), join(codex, 'sessions', '2026', '11', '24', moved));
    ageTree(codex);
    await w.index.refresh([day], { freshnessRecord: true });
    const first = await w.index.refresh([day], { freshnessRecord: true });
    const warm = WarmIndex.open(w.dbPath);
    const file = join(day, grown);
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '{}';
    appendFileSync(file, `${last}\n`);
    const checked = warm?.check([day]);
    expect(checked).toEqual({ kind: 'changed', files: [file] });
    const report = await w.index.refresh([day], {
      freshnessRecord: true,
      changedFiles: checked?.kind === 'changed' ? checked.files : [],
    });
    expect(report).toMatchObject({ files: first.files, filesParsed: 1, sessions: first.sessions });
    expect(w.index.listSessions()).toHaveLength(first.sessions);
    warm?.close();
  });

  it('is a full refresh when a changed file is not stored (its folder gone or never indexed)', async () => {
    await refreshed(w);
    const report = await w.index.refresh([w.home], {
      freshnessRecord: true,
      changedFiles: [join(w.home, 'projects', 'no-such-folder', 'x.jsonl')],
    });
    expect(report.filesParsed).toBe(0);
    expect(report.files).toBeGreaterThan(10);
  });
});

describe('the freshness record', () => {
  it('is not used once the files table was emptied without a refresh (as a migration that resets data does)', async () => {
    const warm = await refreshed(w);
    expect(warm.fresh([w.home])).toBeDefined();
    warm.close();
    const raw = new Database(w.dbPath);
    raw.exec('DELETE FROM files');
    raw.close();
    const after = WarmIndex.open(w.dbPath);
    expect(after?.fresh([w.home])).toBeUndefined();
    after?.close();
  });

  it('sees every file of a folder that holds several, each appended in turn', async () => {
    const files = [join(w.project, `${SESSION}.jsonl`)];
    for (const n of [3, 4, 5]) {
      const file = join(
        w.project,
        `${String(n).repeat(8)}-${String(n).repeat(4)}-4${String(n).repeat(3)}-8${String(n).repeat(3)}-${String(n).repeat(12)}.jsonl`,
      );
      writeFileSync(file, `${JSON.stringify({ type: 'user', uuid: `warm-${n}` })}\n`);
      files.push(file);
    }
    for (const file of files) {
      const warm = await refreshed(w);
      expect(warm.fresh([w.home])).toBeDefined();
      appendFileSync(file, `${JSON.stringify({ type: 'user', uuid: `warm-${file.length}` })}\n`);
      expect(warm.fresh([w.home])).toBeUndefined();
      warm.close();
    }
  });
});

describe('stored answers', () => {
  it('are given back at the generation they were computed at, and dropped once anything is indexed', async () => {
    const warm = await refreshed(w);
    const generation = warm.generation();
    expect(generation).toBeGreaterThan(0);
    expect(warm.answer('stats')).toBeUndefined();
    warm.saveAnswer('stats', generation ?? 0, w.index.stats({ paths: [w.home] }));
    expect(warm.answer('stats')).toEqual(JSON.parse(JSON.stringify(w.index.stats({ paths: [w.home] }))));
    appendFileSync(
      join(w.project, `${SESSION}.jsonl`),
      `${JSON.stringify({ type: 'user', uuid: 'warm-2', sessionId: SESSION, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'more' } })}\n`,
    );
    await w.index.refresh([w.home], { freshnessRecord: true });
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
