import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORST_DEPTH, worstLines } from '../../../test/hostile.js';
import { createPrng } from '../../../test/prng.js';
import type { IssueDto, SessionDetail, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const HOST = { host: '127.0.0.1:4317' };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-queries-'));
  // the run's index of the samples, copied (built once per run, as a cold refresh builds it)
  await copyOfIndex([samples], join(tmp, 'index.sqlite'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([samples]);
  app = createApp({ index, paths: [samples], host: '127.0.0.1', port: 4317 });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Pieces a hostile or clumsy query string is made of: NUL, FTS5 syntax, broken escapes, long and odd text. */
const PIECES = [
  '%00',
  '\u0000',
  '"',
  '*',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  '(',
  ')',
  ':',
  '^',
  '-',
  '%',
  '%E2%80',
  '%FF',
  '%C0%80',
  '%ZZ',
  '+',
  ' ',
  'tool',
  'error',
  'ünï',
  '🙂',
  '\u202e',
  '\\',
  "'",
  ';DROP TABLE docs;--',
  'x'.repeat(700),
];
const PARAMS = ['q', 'project', 'since', 'until', 'model', 'version', 'tool', 'status', 'category', 'limit', 'offset'];
const ROUTES = ['/api/sessions', '/api/stats', '/api/calls', '/api/sessions/%00', '/api/sessions/x%00y/events'];

describe('any query string is safe', () => {
  it('a NUL in a search query is stripped: it finds what the query without it finds', async () => {
    const res = await app.request('/api/sessions?q=%00', { headers: HOST });
    expect(res.status).toBe(200);
    const plain = (await (await app.request('/api/sessions?q=error', { headers: HOST })).json()) as SessionsResponse;
    const withNul = (await (
      await app.request('/api/sessions?q=err%00or%00', { headers: HOST })
    ).json()) as SessionsResponse;
    expect(plain.sessions.length).toBeGreaterThan(0);
    expect(withNul.sessions.map((s) => s.id)).toEqual(plain.sessions.map((s) => s.id));
  });

  it('1,000 seeded random query strings over every route: never a 500', async () => {
    const prng = createPrng(13);
    const failures: string[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const params = Array.from({ length: 1 + prng.int(3) }, () => {
        const value = Array.from({ length: 1 + prng.int(4) }, () => prng.pick(PIECES)).join('');
        const encoded = prng.int(2) === 0 ? value : encodeURIComponent(value);
        return `${prng.pick(PARAMS)}=${encoded}`;
      });
      const path = `${prng.pick(ROUTES)}?${params.join('&')}`;
      const res = await Promise.resolve(app.request(path, { headers: HOST })).catch(() => undefined);
      if (res === undefined || res.status >= 500) failures.push(`${res?.status ?? 'threw'} ${path}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('a session whose file cannot be read any more', () => {
  it('says why it is empty: the detail counts the issue and the issue list names the file', async () => {
    const home = join(tmp, 'unreadable-home');
    const project = join(home, 'projects', '-home-user-proj-api');
    await cp(join(samples, 'projects', '-home-user-proj-api'), project, { recursive: true });
    const own = openIndex({ dbPath: join(tmp, 'unreadable.sqlite') });
    await own.refresh([home]);
    const id = '4da1eb3d-852a-4da6-8e3f-0bacc4f73990';
    const file = join(project, `${id}.jsonl`);
    // Root reads any file whatever its mode: a directory in its place is unreadable for everyone.
    await rm(file);
    await mkdir(file);
    const ownApp = createApp({ index: own, paths: [home], host: '127.0.0.1', port: 4317 });
    const detail = (await (await ownApp.request(`/api/sessions/${id}`, { headers: HOST })).json()) as SessionDetail;
    expect([detail.totalEvents, detail.issues]).toEqual([0, 1]);
    const { issues } = (await (await ownApp.request(`/api/sessions/${id}/issues`, { headers: HOST })).json()) as {
      issues: IssueDto[];
    };
    expect(issues.map((i) => [i.code, i.file, i.line])).toEqual([['unreadable_file', file, 0]]);
    expect(issues[0]?.message).toMatch(/EISDIR/);
    own.close();
  });
});

describe('a session of the worst lines', () => {
  it('pages its timeline in bounded size: 200,000 content blocks are cut to 300 and counted', async () => {
    const id = 'aaaaaaaa-1111-4111-8111-000000000013';
    const project = join(tmp, 'worst-home', 'projects', '-h');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${id}.jsonl`), `${worstLines(WORST_DEPTH, id).join('\n')}\n`);
    const own = openIndex({ dbPath: join(tmp, 'worst.sqlite') });
    await own.refresh([join(tmp, 'worst-home')]);
    const ownApp = createApp({ index: own, paths: [join(tmp, 'worst-home')], host: '127.0.0.1', port: 4317 });
    const res = await ownApp.request(`/api/sessions/${id}/events?limit=100`, { headers: HOST });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body.length).toBeLessThan(1_000_000);
    const page = JSON.parse(body) as {
      events: { kind: string; items?: { kind: string; type?: string; raw?: unknown }[] }[];
    };
    const big = page.events.find((e) => (e.items?.length ?? 0) > 300);
    expect(big?.items?.at(-1)).toEqual({ kind: 'other-block', type: 'omitted', raw: { omittedBlocks: 199_700 } });
    own.close();
  });
});
