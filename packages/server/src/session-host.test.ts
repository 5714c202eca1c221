import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDto } from './api-types.js';
import { createApp } from './app.js';
import { localQueries } from './index-queries.js';
import { toSessionRow } from './mapping.js';
import { answerValue } from './raw-json.js';
import { createLocalSessionHost, type SessionHost, SessionViews } from './session-host.js';
import { createWorkerQueries, createWorkerSessionHost, sessionWorkerScript } from './worker-session-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const script = sessionWorkerScript();
if (!script) console.log('[server] worker tests skipped: the server package is not built (npm run build)');

let tmp: string;
let index: AgentIndex;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-host-'));
  // the run's index of the samples, copied (built once per run, as a cold refresh builds it)
  await copyOfIndex([samples], join(tmp, 'index.sqlite'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([samples]);
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Every event of a thread, read in pages of `size`. */
async function allPages(host: SessionHost, id: string, agent: string | undefined, size: number, all = false) {
  const events: EventDto[] = [];
  for (let offset = 0; ; offset += size) {
    const answer = await host.page(id, agent, offset, size, all);
    if (!answer) throw new Error(`no thread ${agent}`);
    const page = answerValue(answer);
    events.push(...page.events);
    if (offset + size >= page.total) {
      expect(events.length).toBe(page.total);
      return events;
    }
  }
}

describe.skipIf(!script)('sessions in a worker thread', () => {
  it('pages every thread of every session exactly as one page of everything, and as in this thread (sessions spread over two workers)', async () => {
    const worker = createWorkerSessionHost({ dbPath: index.dbPath, threads: 2 })!;
    const local = createLocalSessionHost(index);
    try {
      let threads = 0;
      for (const summary of index.listSessions({ paths: [samples] })) {
        const row = toSessionRow(summary);
        // the worker answers JSON text (serialized in its thread), equal to this thread's value
        const detail = answerValue(await worker.detail(row));
        expect(detail).toEqual(await local.detail(row));
        expect(worker.isLoaded(row.id)).toBe(true);
        for (const agent of [undefined, ...detail.subagents.map((s) => s.key)]) {
          for (const all of [false, true]) {
            const paged = await allPages(worker, row.id, agent, 7, all);
            const whole = await worker.page(row.id, agent, 0, 100_000, all);
            expect(paged).toEqual(whole && answerValue(whole).events);
            expect(paged).toEqual(await allPages(local, row.id, agent, 1000, all));
            threads++;
          }
        }
      }
      expect(threads).toBeGreaterThan(40);
    } finally {
      await worker.close();
      await local.close();
    }
  });

  it('answers calls and locations, and 404s for what does not exist', async () => {
    const worker = createWorkerSessionHost({ dbPath: index.dbPath })!;
    try {
      const withCalls = index.listSessions({ paths: [samples] }).find((s) => s.toolCalls > 0)!;
      const call = index.calls({ sessionId: withCalls.id, limit: 1 })[0]!;
      const dto = await worker.call(withCalls.id, call.callId);
      expect(dto && answerValue(dto).id).toBe(call.callId);
      expect(await worker.call(withCalls.id, 'toolu_nope')).toBeUndefined();
      await expect(worker.page('00000000-0000-4000-8000-000000000000', undefined, 0, 10, false)).rejects.toMatchObject({
        status: 404,
      });
      worker.invalidate(withCalls.id);
      expect(worker.isLoaded(withCalls.id)).toBe(false);
    } finally {
      await worker.close();
    }
  });
});

/** The whole text of an HTML export, read batch by batch; the export time (the only thing that differs) blanked. */
async function exportText(host: SessionHost, sessionId: string, summary: unknown, assetsDir: string, redact: boolean) {
  const html = await host.exportSession(sessionId, 'html', summary, assetsDir, redact);
  let text = '';
  let batches = 0;
  for (let part = await html.next(); part !== undefined; part = await html.next()) {
    text += part;
    batches++;
  }
  expect(batches).toBeGreaterThan(0);
  return { redacted: html.redacted, text: text.replace(/"exportedAt":"[^"]*"/, '"exportedAt":""') };
}

describe.skipIf(!script)('HTML exports in a worker thread', () => {
  it('write every session exactly as this thread does, redacted or not, and can be stopped early', async () => {
    const assetsDir = join(tmp, 'assets');
    await mkdir(join(assetsDir, 'export'), { recursive: true });
    await writeFile(join(assetsDir, 'export', 'export.js'), 'document.title = "viewer";');
    await writeFile(join(assetsDir, 'export', 'export.css'), 'body{color:red}');
    const worker = createWorkerSessionHost({ dbPath: index.dbPath })!;
    const local = createLocalSessionHost(index);
    try {
      let compared = 0;
      for (const summary of index.listSessions({ paths: [samples] })) {
        for (const redact of [true, false]) {
          const mine = await exportText(local, summary.id, summary, assetsDir, redact);
          expect(await exportText(worker, summary.id, summary, assetsDir, redact)).toEqual(mine);
          expect(mine.text).toContain(`"sessionId":${JSON.stringify(summary.ref)}`);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(20);
      const first = index.listSessions({ paths: [samples] })[0]!;
      const html = await worker.exportSession(first.id, 'html', first, assetsDir, true);
      html.close();
      await expect(
        worker.exportSession('00000000-0000-4000-8000-000000000000', 'html', first, assetsDir, true),
      ).rejects.toMatchObject({ status: 404 });
    } finally {
      await worker.close();
      await local.close();
    }
  });
});

describe.skipIf(!script)('index queries in a worker thread', () => {
  it('answer exactly what the same queries answer in this thread', async () => {
    const worker = createWorkerQueries({ dbPath: index.dbPath })!;
    const local = localQueries(index);
    try {
      const scope = { paths: [samples] };
      const first = (await local.listSessions(scope))[0]!;
      const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
        ['listSessions', () => worker.listSessions(scope), () => local.listSessions(scope)],
        [
          'pageSessions',
          () => worker.pageSessions(scope, { offset: 2, limit: 5, sort: 'toolCalls' }),
          () => local.pageSessions(scope, { offset: 2, limit: 5, sort: 'toolCalls' }),
        ],
        ['sessionTotals', () => worker.sessionTotals(scope), () => local.sessionTotals(scope)],
        ['sessionFacets', () => worker.sessionFacets(scope), () => local.sessionFacets(scope)],
        ['getSession', () => worker.getSession(first.id.slice(0, 8)), () => local.getSession(first.id.slice(0, 8))],
        [
          'search',
          () => worker.search('background', { ...scope, limit: 50 }),
          () => local.search('background', { ...scope, limit: 50 }),
        ],
        ['calls', () => worker.calls({ ...scope, status: 'error' }), () => local.calls({ ...scope, status: 'error' })],
        ['issues', () => worker.issues(scope), () => local.issues(scope)],
        ['statsResponse', () => worker.statsResponse(scope), () => local.statsResponse(scope)],
      ];
      for (const [name, there, here] of cases) {
        const answer = await there();
        expect(answer, name).toEqual(await here());
        // every answer holds something, but the samples have no parse issue
        expect(JSON.stringify(answer).length, name).toBeGreaterThan(name === 'issues' ? 1 : 2);
      }
      // a query that throws in the worker rejects here, with no answer
      await expect(worker.getSession('')).resolves.toBeUndefined();
    } finally {
      await worker.close();
    }
  });
});

describe.skipIf(!script)('errors that cross a worker thread', () => {
  it('keep their status and code: a prefix of several sessions is a 409 AMBIGUOUS_SESSION, as in this thread', async () => {
    const queries = createWorkerQueries({ dbPath: index.dbPath })!;
    const sessions = createWorkerSessionHost({ dbPath: index.dbPath })!;
    const app = createApp({
      index,
      queries,
      sessions,
      paths: [samples],
      host: '127.0.0.1',
      port: 4317,
      assetsDir: tmp,
    });
    try {
      const ids = index.listSessions({ paths: [samples] }).map((s) => s.id);
      const prefix = ids.map((id) => id.slice(0, 1)).find((p, _, all) => all.filter((q) => q === p).length > 1);
      expect(prefix).toBeDefined();
      const res = await app.request(`/api/sessions/${prefix}`, { headers: { host: '127.0.0.1:4317' } });
      expect(res.status).toBe(409);
      const body = (await res.json()) as { candidates?: string[] };
      expect(body).toMatchObject({ success: false, code: 'AMBIGUOUS_SESSION' });
      // and the sessions it names
      expect(body.candidates?.slice().sort()).toEqual(ids.filter((id) => id.startsWith(prefix ?? '')).sort());
    } finally {
      await queries.close();
      await sessions.close();
    }
  });
});

describe('the loaded-session cache', () => {
  it('keeps the last few sessions, and fewer when their transcripts are large', async () => {
    const ids = index.listSessions({ paths: [samples] }).map((s) => s.id);
    const byCount = new SessionViews(index, 3, Number.POSITIVE_INFINITY);
    for (const id of ids.slice(0, 5)) await byCount.get(id);
    expect(byCount.keys()).toEqual(ids.slice(2, 5));
    // a budget of one byte keeps only the most recent session
    const byBytes = new SessionViews(index, 10, 1);
    for (const id of ids.slice(0, 3)) await byBytes.get(id);
    expect(byBytes.keys()).toEqual([ids[2]]);
    // a hit moves a session to the most recent end
    await byCount.get(ids[2]!);
    expect(byCount.keys()).toEqual([ids[3], ids[4], ids[2]]);
  });
});
