import { appendFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { threadNiceValues } from '../../test/threads.js';
import { openIndex } from '../index.js';
import { Refresher } from './refresh.js';

let dir: string;
let home: string;
beforeAll(() => {
  ({ dir, home } = copySamplesHome('agentdash-journals-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated, empty index file, and a connection of our own to it. */
function emptyIndex(name: string): Database.Database {
  const dbPath = join(dir, name);
  openIndex({ dbPath }).close();
  return new Database(dbPath);
}

/** Refresh `home` over `db`, noting `temp_store` before each file it imports. */
async function tempStoreWhileImporting(db: Database.Database): Promise<{ files: number; during: Set<unknown> }> {
  const during = new Set<unknown>();
  const report = await new Refresher(db).refresh([home], {
    beforeFile: () => {
      during.add(db.pragma('temp_store', { simple: true }));
    },
  });
  return { files: report.filesParsed, during };
}

describe('a refresh', () => {
  it("of an empty index keeps its savepoints' journals in memory while it imports, and puts the setting back after", async () => {
    const db = emptyIndex('journals.sqlite');
    try {
      db.pragma('temp_store = FILE');
      const first = await tempStoreWhileImporting(db);
      expect(first.files).toBeGreaterThan(0);
      // 2: MEMORY (1: FILE, 0: DEFAULT)
      expect(first.during).toEqual(new Set([2]));
      expect(db.pragma('temp_store', { simple: true })).toBe(1);
      // A later refresh leaves the setting alone: re-reading or dropping a large stored file would copy all its pages.
      const file = readdirSync(join(home, 'projects'), { recursive: true, encoding: 'utf8' }).find((f) =>
        f.endsWith('.jsonl'),
      );
      appendFileSync(
        join(home, 'projects', file as string),
        `${JSON.stringify({ type: 'summary', summary: 'more' })}\n`,
      );
      const again = await tempStoreWhileImporting(db);
      expect(again.files).toBe(1);
      expect(again.during).toEqual(new Set([1]));
    } finally {
      db.close();
    }
  });

  it('of an empty index checkpoints the WAL once, at the end: truncated after, the setting put back', async () => {
    const db = emptyIndex('checkpoint.sqlite');
    const walBytes = () => statSync(`${db.name}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    try {
      const during = new Set<unknown>();
      const report = await new Refresher(db).refresh([home], {
        beforeFile: () => {
          during.add(db.pragma('wal_autocheckpoint', { simple: true }));
        },
      });
      expect(report.filesParsed).toBeGreaterThan(0);
      expect(during).toEqual(new Set([0]));
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      // The final checkpoint does not wait for other processes, and the connection waits as it did after it.
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(walBytes()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('closes its parse workers when its connection is closed under it (a server stopped while it indexes)', async () => {
    const db = emptyIndex('closed.sqlite');
    const niced = () => threadNiceValues().filter((n) => n > 0).length;
    const before = niced();
    let files = 0;
    const refresh = new Refresher(db).refresh([home], {
      parseWorkers: 2,
      beforeFile: () => {
        files += 1;
        if (files === 2) db.close();
      },
    });
    await expect(refresh).rejects.toThrow();
    if (process.platform === 'linux' && before === 0) expect(niced()).toBe(0);
    expect(db.open).toBe(false);
  });
});
