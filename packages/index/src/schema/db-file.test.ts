/**
 * Recognising an index while another process creates it: the facts read (stamp, user_version, tables) come from one
 * snapshot, so a half-created index of ours is never taken for another program's database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { INDEX_APPLICATION_ID, recogniseIndex } from './db-file.js';
import { migrate, SCHEMA_VERSION } from './schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-db-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('sees a new file as new even when another process stamps and migrates it between the reads', () => {
  const path = join(dir, 'index.sqlite');
  const creator = new Database(path);
  const reader = new Database(path);
  creator.pragma('journal_mode = WAL');
  // The other process acts right after the reader's first read (the stamp), as the race did in CI.
  let acted = false;
  const pragma = reader.pragma.bind(reader);
  const spied = new Proxy(reader, {
    get(target, key) {
      if (key !== 'pragma') return Reflect.get(target, key, target);
      return (source: string, options?: { simple?: boolean }) => {
        const value = pragma(source, options);
        if (!acted && source === 'application_id') {
          acted = true;
          creator.pragma(`application_id = ${INDEX_APPLICATION_ID}`);
          migrate(creator);
        }
        return value;
      };
    },
  });
  expect(recogniseIndex(spied, path, SCHEMA_VERSION)).toBe('new');
  expect(acted).toBe(true);
  // Read afresh, it is ours.
  expect(recogniseIndex(reader, path, SCHEMA_VERSION)).toBe('stamped');
  reader.close();
  creator.close();
});
