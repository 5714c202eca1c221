import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListedFolder } from '../../io/listed-folders.js';
import { discoverOpenCodeFiles, recognizesOpenCodePath } from './discover.js';
import { setSnapshotRoot } from './snapshot.js';
import { openCodeHome11833 } from './test-helpers.js';

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-opencode-discover-'));
  setSnapshotRoot(join(dir, 'snapshots'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the recorded database in a data folder of its own, in WAL mode as OpenCode keeps it. */
function freshHome(name: string, wal: boolean): string {
  home = join(dir, name);
  mkdirSync(home, { recursive: true });
  copyFileSync(join(openCodeHome11833, 'opencode.db'), join(home, 'opencode.db'));
  if (wal) {
    const db = new Database(join(home, 'opencode.db'));
    db.pragma('journal_mode = WAL');
    db.close();
  }
  return home;
}

const partLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"type":"part"'));

describe('OpenCode discovery over opencode.db', () => {
  it('never creates a file in the data folder, WAL mode with no client running', async () => {
    const data = freshHome('closed', true);
    expect(readdirSync(data)).toEqual(['opencode.db']);
    const { files, issues } = await discoverOpenCodeFiles(data);
    expect(issues).toEqual([]);
    expect(files.length).toBe(9);
    expect(readdirSync(data)).toEqual(['opencode.db']);
  });

  it('sees what a running client committed (WAL), rewrites only the session that changed', async () => {
    const data = freshHome('live', true);
    const writer = new Database(join(data, 'opencode.db'));
    writer.pragma('journal_mode = WAL');
    try {
      const before = await discoverOpenCodeFiles(data);
      const [first, second] = before.files;
      if (first === undefined || second === undefined) throw new Error('no files');
      const session = first.sessionId ?? '';
      const message = writer.prepare('SELECT id FROM message WHERE session_id = ? LIMIT 1').get(session) as {
        id: string;
      };
      writer
        .prepare(
          'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run('prt_zzzz_added', message.id, session, Date.now(), Date.now(), '{"type":"text","text":"added later"}');
      const noted: ListedFolder[] = [];
      await recognizesOpenCodePath(data, noted);
      expect(noted.map(([path]) => path)).toContain(join(data, 'opencode.db-wal'));
      const after = await discoverOpenCodeFiles(data);
      const changed = after.files.find((f) => f.path === first.path);
      expect(changed?.size).toBeGreaterThan(first.size);
      expect(partLines(first.path).filter((l) => l.includes('added later')).length).toBe(1);
      const same = after.files.find((f) => f.path === second.path);
      expect({ size: same?.size, mtimeMs: same?.mtimeMs }).toEqual({ size: second.size, mtimeMs: second.mtimeMs });
      expect(readdirSync(data).sort()).toEqual(['opencode.db', 'opencode.db-shm', 'opencode.db-wal']);
    } finally {
      writer.close();
    }
  });

  it('reports a locked database as an issue, without throwing', async () => {
    const data = freshHome('locked', false);
    const writer = new Database(join(data, 'opencode.db'));
    writer.exec('BEGIN EXCLUSIVE');
    try {
      const { files, issues } = await discoverOpenCodeFiles(data);
      expect(files).toEqual([]);
      expect(issues.map((i) => [i.code, i.file])).toEqual([['unreadable_file', join(data, 'opencode.db')]]);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('finds the sessions again from a snapshot folder (the index refreshes a file’s folder)', async () => {
    const data = freshHome('again', false);
    const { files } = await discoverOpenCodeFiles(data);
    const folder = dirname(files[0]?.path ?? '');
    const again = await discoverOpenCodeFiles(folder);
    expect(again.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
    expect(statSync(folder).isDirectory()).toBe(true);
  });
});
