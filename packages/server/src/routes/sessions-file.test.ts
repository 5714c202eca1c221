import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { SessionsResponse } from '../api-types.js';

/** A file the bundled samples' subagents sessions read (not every session of the samples). */
const DATA = '/home/user/proj/subagents/data.txt';

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES]);
});
afterAll(() => t.close());

const listed = async (query: string) => t.json<SessionsResponse>(`/api/sessions?${query}`);

describe('GET /api/sessions?file=', () => {
  it('lists the sessions whose file tools touched the file, by its path or its end on whole segments', async () => {
    const all = await listed('');
    const byPath = await listed(`file=${encodeURIComponent(DATA)}`);
    expect(byPath.total).toBeGreaterThan(0);
    expect(byPath.total).toBeLessThan(all.total);
    expect(byPath.sessions.every((s) => s.projectPath === '/home/user/proj/subagents')).toBe(true);
    // Counted as listed: the totals are the filtered list's.
    expect(byPath.sessions).toHaveLength(byPath.total);
    const bySuffix = await listed('file=subagents/data.txt');
    expect(bySuffix.sessions.map((s) => s.id)).toEqual(byPath.sessions.map((s) => s.id));
    expect((await listed('file=ata.txt')).total).toBe(0);
    expect((await listed(`file=${encodeURIComponent('/home/user/proj/subagents/none.txt')}`)).total).toBe(0);
    // With the other filters, and with a search.
    expect((await listed(`file=data.txt&since=2999-01-01`)).total).toBe(0);
    const searched = await listed(`file=data.txt&q=data`);
    expect(searched.sessions.every((s) => byPath.sessions.some((b) => b.id === s.id))).toBe(true);
  });

  it('is no filter when empty', async () => {
    expect((await listed('file=')).total).toBe((await listed('')).total);
  });
});
