import { appendFileSync, chmodSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORST_DEPTH, worstLines } from '../../../test/hostile.js';
import { copySamplesHome } from '../test/temp-home.js';
import { type AgentIndex, openIndex } from './index.js';

let dir: string;
let home: string;
let dbPath: string;
let index: AgentIndex;
beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-hostile-index-'));
  dbPath = join(dir, 'index.sqlite');
  index = openIndex({ dbPath });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const API = '-home-user-proj-api';
const FIRST = '1a27cc4c-c7a3-4773-8c08-9943d0a1ff88';

describe('hostile input never stops a refresh', () => {
  it(`indexes every file when one holds the worst lines (${WORST_DEPTH} levels deep in every field)`, async () => {
    const batch = await index.refresh([home]);
    const file = join(home, 'projects', API, `${FIRST}.jsonl`);
    const lines = worstLines(WORST_DEPTH, FIRST);
    appendFileSync(file, `${lines.join('\n')}\n`);
    const report = await index.refresh([home]);
    expect([report.files, report.filesParsed, report.sessions]).toEqual([batch.files, 1, batch.sessions]);
    const deep = index
      .issues()
      .filter((i) => i.code === 'too_deep')
      .map((i) => i.line);
    expect(deep).toHaveLength(32);
    const session = index.getSession(FIRST);
    expect(session?.toolCalls).toBe(3);
    const loaded = await index.loadSession(FIRST);
    expect(loaded.calls.map((c) => c.id)).toEqual(['toolu_hostile_0', 'toolu_hostile_1', 'toolu_hostile_2']);
    expect((await index.search('NUL')).map((h) => h.sessionId)).toEqual([FIRST]);
  });

  it('stores a file whose import fails as an issue and goes on with the next; retries once it changes', async () => {
    // A real failure inside the import transaction: the database refuses one record.
    const db = new Database(dbPath);
    db.exec(`CREATE TRIGGER boom BEFORE INSERT ON records WHEN NEW.uuid_raw = 'boom'
             BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`);
    const file = join(home, 'projects', API, `${FIRST}.jsonl`);
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', uuid: 'boom', sessionId: FIRST, message: { content: 'x' } })}\n`,
    );
    const report = await index.refresh([home]);
    expect(report.sessions).toBe(28);
    const failed = index.issues().filter((i) => i.code === 'import_failed');
    expect(failed.map((i) => [i.file, i.line, i.sessionId])).toEqual([[file, 0, FIRST]]);
    expect(failed[0]?.message).toMatch(/^could not be indexed \(SqliteError: refused by test trigger\)/);
    expect(index.getSession(FIRST)?.issues).toBe(1);
    // Unchanged: not retried, the issue stays once.
    expect((await index.refresh([home])).filesParsed).toBe(0);
    expect(index.issues().filter((i) => i.code === 'import_failed')).toHaveLength(1);
    // Changed and importable: read, and the issue is gone.
    db.exec('DROP TRIGGER boom');
    db.close();
    appendFileSync(file, '\n');
    expect((await index.refresh([home])).filesParsed).toBe(1);
    expect(index.issues().filter((i) => i.code === 'import_failed')).toEqual([]);
    expect(index.getSession(FIRST)?.messages).toBeGreaterThan(0);
  });

  it('keeps the texts a failed file numbered out of the files after it (a rolled-back savepoint undid them)', async () => {
    await index.refresh([home]);
    const db = new Database(dbPath);
    db.exec(`CREATE TRIGGER boom BEFORE INSERT ON records WHEN NEW.uuid_raw = 'boom'
             BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`);
    const cwd = '/a/folder/no/record/named/before';
    const line = (sessionId: string, uuid: string) =>
      `${JSON.stringify({ type: 'user', uuid, sessionId, cwd, version: '9.9.9-new', message: { content: 'x' } })}\n`;
    const failing = join(home, 'projects', API, '0f000000-0000-4000-8000-000000000001.jsonl');
    const next = join(home, 'projects', API, '0f000000-0000-4000-8000-000000000002.jsonl');
    writeFileSync(failing, line('0f000000-0000-4000-8000-000000000001', 'a1') + line('x', 'boom'));
    writeFileSync(next, line('0f000000-0000-4000-8000-000000000002', 'b1'));
    // Newest session first: the failing file is imported first, in the same transaction as the next one.
    const now = Date.now() / 1000;
    utimesSync(failing, now, now);
    utimesSync(next, now - 60, now - 60);
    await index.refresh([home]);
    const stored = db
      .prepare(
        `SELECT c.text AS cwd, v.text AS version FROM records r JOIN files f ON f.id = r.file_id
         LEFT JOIN strings c ON c.id = r.cwd_ref LEFT JOIN strings v ON v.id = r.version_ref WHERE f.path = ?`,
      )
      .all(next);
    db.exec('DROP TRIGGER boom');
    db.close();
    expect(
      index
        .issues()
        .filter((i) => i.code === 'import_failed')
        .map((i) => i.file),
    ).toEqual([failing]);
    expect(stored).toEqual([{ cwd, version: '9.9.9-new' }]);
  });
});

describe('outputs are bounded', () => {
  it('caps a session summary’s lists and text fields; the stored rows keep everything', async () => {
    const file = join(home, 'projects', API, `${FIRST}.jsonl`);
    const base = { type: 'assistant', sessionId: FIRST, timestamp: '2026-11-21T20:30:00.000Z', cwd: '/p' };
    const lines = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({
        ...base,
        uuid: `big-${i}`,
        version: `${i}.${'9'.repeat(30_000)}`,
        message: { id: `m-${i}`, role: 'assistant', model: `model-${i}`, content: [{ type: 'text', text: 'x' }] },
      }),
    );
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'custom-title', customTitle: 't'.repeat(100_000), sessionId: FIRST })}\n`,
    );
    appendFileSync(file, `${lines.join('\n')}\n`);
    await index.refresh([home]);
    const summary = index.getSession(FIRST);
    expect(summary?.versions).toHaveLength(21);
    expect(summary?.versions.at(-1)).toBe('… 41 more');
    expect(Math.max(...(summary?.versions ?? []).map((v) => v.length))).toBe(100);
    expect(summary?.models.slice(-2)).toEqual(['model-18', '… 41 more']);
    expect(summary?.title?.length).toBe(500);
    expect(JSON.stringify(summary).length).toBeLessThan(10_000);
  });
});

describe('permission changes', () => {
  it.skipIf(process.getuid?.() === 0)(
    'a project folder made unreadable keeps its sessions and is reported (skipped as root, who reads any folder)',
    async () => {
      const first = await index.refresh([home]);
      const folder = join(home, 'projects', API);
      chmodSync(folder, 0o000);
      try {
        const report = await index.refresh([home]);
        expect(report.sessions).toBe(first.sessions);
        expect(index.refreshProblems().map((p) => [p.code, p.file])).toEqual([['unreadable_file', folder]]);
      } finally {
        chmodSync(folder, 0o755);
      }
    },
  );

  it.skipIf(process.getuid?.() === 0)(
    'a session file made unreadable without any other change is reported by the next batch refresh, its content kept (skipped as root)',
    async () => {
      const first = await index.refresh([home]);
      const file = index.listSessions({ paths: [home] })[0]?.files[0]?.path ?? '';
      const before = index.getSession(index.sessionIdOfFile(file) ?? '');
      chmodSync(file, 0o000);
      try {
        const report = await index.refresh([home]);
        expect(report.sessions).toBe(first.sessions);
        expect(index.refreshProblems().map((p) => [p.code, p.file])).toEqual([['unreadable_file', file]]);
        expect(index.getSession(index.sessionIdOfFile(file) ?? '')?.messages).toBe(before?.messages);
      } finally {
        chmodSync(file, 0o644);
      }
      await index.refresh([home]);
      expect(index.refreshProblems()).toEqual([]);
    },
  );
});
