/**
 * An HTML export answers error navigation and find-in-session from its embedded data, with no server: for every
 * sample session, the answers read from the export's data are the API's answers for the same session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../../server/test/app-harness.js';
import { answerStatic, type StaticSessionData } from './static-source';
import type { FindResponse, SessionErrorsResponse, SessionsResponse } from './types';

const HOST = { host: '127.0.0.1:4317' };
const QUERIES = ['the', 'error', 'READ', 'exit code', '"file_path"', 'agent', 'no-such-text-anywhere'];

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES], { exportViewer: true });
});
afterAll(() => t.close());
const json = <T>(path: string) => t.json<T>(path);

describe('an HTML export without a server', () => {
  it("answers /errors and /find as the API does, for every sample session, subagents' calls included", async () => {
    const { sessions } = await json<SessionsResponse>('/api/sessions?limit=1000');
    expect(sessions.length).toBeGreaterThan(20);
    let errors = 0;
    let hits = 0;
    let inSubagents = 0;
    for (const row of sessions) {
      const res = await t.app.request(`/api/sessions/${encodeURIComponent(row.id)}/export.html?redact=0`, {
        headers: HOST,
      });
      expect(res.status, row.id).toBe(200);
      const embedded = /<script type="application\/json" id="agentdash-data">(.*?)<\/script>/s.exec(await res.text());
      const data = JSON.parse(embedded?.[1] ?? '') as StaticSessionData;
      const at = `/sessions/${encodeURIComponent(row.id)}`;
      const api = await json<SessionErrorsResponse>(`/api${at}/errors`);
      expect(answerStatic(data, `${at}/errors`, {}), row.id).toEqual(api);
      errors += api.errors.length;
      for (const q of QUERIES) {
        const found = await json<FindResponse>(`/api${at}/find?q=${encodeURIComponent(q)}`);
        expect(answerStatic(data, `${at}/find`, { q }), `${row.id} ${q}`).toEqual(found);
        hits += found.hits.length;
        inSubagents += found.hits.filter((h) => h.expand.length > 0).length;
      }
    }
    expect(errors).toBeGreaterThan(10);
    expect(hits).toBeGreaterThan(100);
    expect(inSubagents).toBeGreaterThan(0);
  });
});
