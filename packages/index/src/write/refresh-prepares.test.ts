/** A refresh prepares the statements of its writes only when it has something to write (`preparedOnUse`). */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { useWarmHome } from '../../test/warm-home.js';
import { openIndex } from '../index.js';
import type { RefreshReport } from '../types.js';

const SESSION = 'f0835e0b-b4c6-4910-817c-346fd7332302';

const w = useWarmHome();

/**
 * The index opened again (a new connection, as each command's) and the home refreshed: its report, and the SQL of the
 * write statements prepared meanwhile.
 */
async function refreshOnNewConnection(): Promise<{ report: RefreshReport; written: string[] }> {
  w.index.close();
  const prepare = vi.spyOn(Database.prototype, 'prepare');
  try {
    w.index = openIndex({ dbPath: w.dbPath });
    const report = await w.index.refresh([w.home]);
    const sql = prepare.mock.calls.map(([source]) => source);
    return { report, written: sql.filter((source) => /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(source)) };
  } finally {
    prepare.mockRestore();
  }
}

describe('a refresh on a new connection', () => {
  it('of an unchanged home prepares no write statement', async () => {
    await w.index.refresh([w.home]);
    const { report, written } = await refreshOnNewConnection();
    expect(report.files).toBeGreaterThan(0);
    expect(report.filesParsed).toBe(0);
    expect(written).toEqual([]);
  });

  it('after an append prepares the writes it needs and stores the new record', async () => {
    await w.index.refresh([w.home]);
    const before = w.index.getSession(SESSION);
    const file = join(w.project, `${SESSION}.jsonl`);
    const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '{}');
    const line = { ...last, type: 'user', uuid: 'prepared-on-use', parentUuid: last.uuid };
    appendFileSync(file, `${JSON.stringify({ ...line, message: { role: 'user', content: 'a prompt appended' } })}\n`);
    const { report, written } = await refreshOnNewConnection();
    expect(report.filesParsed).toBe(1);
    expect(report.records).toBe(1);
    expect(written.some((source) => source.includes('INTO records'))).toBe(true);
    const after = w.index.getSession(SESSION);
    expect(after?.prompts).toBe((before?.prompts ?? 0) + 1);
    expect(after?.messages).toBe((before?.messages ?? 0) + 1);
    const hits = await w.index.search('"a prompt appended"');
    expect(hits.map((hit) => hit.sessionId)).toContain(SESSION);
  });
});
