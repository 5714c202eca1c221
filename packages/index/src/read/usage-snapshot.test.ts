/**
 * `usageResponses` reads the sessions in scope, then their responses: both from one snapshot, so that another
 * process committing a session in between (a `statusline` beside a running `serve`) changes nothing in the answer.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPriceTable } from '@agentdash/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { openIndex } from '../index.js';
import type { Store } from './scope.js';
import { usageResponses } from './usage-queries.js';

let dir: string;
let dbPath: string;

beforeEach(async () => {
  let home: string;
  ({ dir, home } = copySamplesHome('agentdash-usage-snapshot-'));
  dbPath = join(dir, 'index.sqlite');
  const index = openIndex({ dbPath });
  await index.refresh([home]);
  index.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another connection stores a copy of a session with responses, under a new key, and commits. */
function commitAnotherSession(): void {
  const other = new Database(dbPath);
  try {
    other.transaction(() => {
      const source = other
        .prepare(
          `SELECT s.id, st.id AS ref FROM sessions s JOIN strings st ON st.text = s.id
           WHERE EXISTS (SELECT 1 FROM responses r WHERE r.session_ref = st.id) LIMIT 1`,
        )
        .get() as { id: string; ref: number };
      const key = `${source.id}-copy`;
      const ref = Number(other.prepare('INSERT INTO strings (text) VALUES (?)').run(key).lastInsertRowid);
      const columns = (other.prepare('PRAGMA table_info(sessions)').all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => name !== 'id');
      other
        .prepare(
          `INSERT INTO sessions (id, ${columns.join(', ')}) SELECT ?, ${columns.join(', ')} FROM sessions WHERE id = ?`,
        )
        .run(key, source.id);
      const responseColumns = (other.prepare('PRAGMA table_info(responses)').all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => name !== 'session_ref');
      other
        .prepare(
          `INSERT INTO responses (session_ref, ${responseColumns.join(', ')})
           SELECT ?, ${responseColumns.join(', ')} FROM responses WHERE session_ref = ?`,
        )
        .run(ref, source.ref);
    })();
  } finally {
    other.close();
  }
}

it('reads the sessions and their responses from one snapshot', () => {
  const db = new Database(dbPath);
  try {
    const store: Store = { db, now: Date.now, prices: defaultPriceTable };
    const before = usageResponses(store, {});
    expect(before.length).toBeGreaterThan(50);
    // The connection as a query sees it, with another process's commit just before the responses are read.
    let committed = false;
    const racing = new Proxy(db, {
      get(target, prop) {
        if (prop === 'prepare') {
          return (sql: string) => {
            if (!committed && sql.includes('FROM responses r')) {
              committed = true;
              commitAnotherSession();
            }
            return target.prepare(sql);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const during = usageResponses({ ...store, db: racing }, {});
    expect(committed).toBe(true);
    expect(during).toEqual(before);
    // The next read sees the new session: its copies of the responses belong to the session that started first.
    const after = new Database(dbPath, { readonly: true });
    try {
      expect(usageResponses({ ...store, db: after }, {})).toHaveLength(before.length);
      expect(after.prepare("SELECT count(*) FROM sessions WHERE id LIKE '%-copy'").pluck().get()).toBe(1);
    } finally {
      after.close();
    }
  } finally {
    db.close();
  }
});
