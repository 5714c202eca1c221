/**
 * An HTML export answers error navigation and find-in-session from its embedded data, with no server: for every
 * sample session, the answers read from the export's data are the API's answers for the same session.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerStatic, type StaticSessionData } from './static-source';
import type { FindResponse, SessionErrorsResponse, SessionsResponse } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');
const HOST = { host: '127.0.0.1:4317' };
const QUERIES = ['the', 'error', 'READ', 'exit code', '"file_path"', 'agent', 'no-such-text-anywhere'];

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

const json = async <T>(path: string): Promise<T> => {
  const res = await app.request(path, { headers: HOST });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-static-'));
  const assetsDir = join(tmp, 'assets');
  await mkdir(join(assetsDir, 'export'), { recursive: true });
  await writeFile(join(assetsDir, 'index.html'), '<!doctype html>');
  await writeFile(join(assetsDir, 'export', 'export.js'), '');
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([samples]);
  app = createApp({ index, paths: [samples], host: '127.0.0.1', port: 4317, assetsDir });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('an HTML export without a server', () => {
  it("answers /errors and /find as the API does, for every sample session, subagents' calls included", async () => {
    const { sessions } = await json<SessionsResponse>('/api/sessions?limit=1000');
    expect(sessions.length).toBeGreaterThan(20);
    let errors = 0;
    let hits = 0;
    let inSubagents = 0;
    for (const row of sessions) {
      const res = await app.request(`/api/sessions/${encodeURIComponent(row.id)}/export.html?redact=0`, {
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
