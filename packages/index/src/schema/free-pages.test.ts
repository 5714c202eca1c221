import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { type AgentIndex, openIndex } from '../index.js';

let dir: string;
let home: string;
let dbPath: string;
let index: AgentIndex;

beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-free-pages-'));
  dbPath = join(dir, 'index.sqlite');
  index = openIndex({ dbPath });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The file's pages as SQLite counts them, read on a connection of its own. */
function pages(): { autoVacuum: number; free: number; total: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      autoVacuum: db.pragma('auto_vacuum', { simple: true }) as number,
      free: db.pragma('freelist_count', { simple: true }) as number,
      total: db.pragma('page_count', { simple: true }) as number,
    };
  } finally {
    db.close();
  }
}

function transcripts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.jsonl'))
    .map((p) => join(folder, p));
}

describe('free pages', () => {
  it('a new index gives back the pages a refresh freed', async () => {
    await index.refresh([home]);
    expect(pages()).toMatchObject({ autoVacuum: 2, free: 0 });
    // The largest transcript rewritten shorter: read again from its start, its old rows deleted.
    const largest = transcripts(home).sort((a, b) => statSync(b).size - statSync(a).size)[0] as string;
    const lines = readFileSync(largest, 'utf8').split('\n');
    writeFileSync(largest, `${lines.slice(0, 5).join('\n')}\n`);
    const report = await index.refresh([home]);
    expect(report.filesParsed).toBe(1);
    expect(pages().free).toBe(0);
  });

  it('forgetting a session on purpose makes the database smaller', async () => {
    await index.refresh([home], { archive: true });
    const largest = index.listSessions().sort((a, b) => b.messages - a.messages)[0];
    if (largest === undefined) throw new Error('no sessions in the samples');
    const before = pages();
    const report = await index.forgetSession(largest.id);
    expect(report.bytes).toBeGreaterThan(0);
    const after = pages();
    expect(after.free).toBe(0);
    expect(after.total).toBeLessThan(before.total);
    // The WAL holds the moved pages until a checkpoint: the database file itself shrinks once it is written back.
    index.close();
    index = openIndex({ dbPath });
    expect(statSync(dbPath).size).toBe(after.total * 4096);
  });
});
