import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type {
  CallDto,
  EventsPage,
  FindResponse,
  SessionDetail,
  SessionErrorsResponse,
  SessionsResponse,
} from './api-types.js';

const HOST = { host: '127.0.0.1:4317' };

let t: TestApp;
beforeAll(async () => {
  t = await appOver([SAMPLES]);
});
afterAll(() => t.close());
const json = <T>(path: string) => t.json<T>(path);

async function allSessions() {
  return (await json<SessionsResponse>('/api/sessions?limit=1000')).sessions;
}

describe('GET /api/sessions/:id/errors', () => {
  it('lists every errored call and failed request of every sample session, each at the event that shows it', async () => {
    let checked = 0;
    let insideSubagents = 0;
    let requests = 0;
    for (const row of await allSessions()) {
      const detail = await json<SessionDetail>(`/api/sessions/${row.id}`);
      const all = (await json<SessionErrorsResponse>(`/api/sessions/${row.id}/errors`)).errors;
      expect([...all].sort((a, b) => a.index - b.index)).toEqual(all);
      // a failed request: at the event that says it failed (an API-error answer, or the agent's error note)
      for (const hit of all.filter((e) => e.callId === null)) {
        const page = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=${hit.index}&limit=1`);
        const event = page.events[0];
        const said = event?.kind === 'assistant' ? event.isApiError : event?.kind === 'note' && event.label;
        expect([hit.tool, hit.expand, said], row.id).toEqual([
          null,
          [],
          event?.kind === 'assistant' ? true : 'api_error',
        ]);
        requests++;
      }
      const errors = all.filter((e): e is typeof e & { callId: string } => e.callId !== null);
      expect(all.length - errors.length, row.id).toBe(detail.counts.failedRequests);
      expect(errors.length, row.id).toBe(detail.counts.errors);
      expect(errors.filter((e) => e.severity === 'expected').length, row.id).toBe(detail.counts.expectedErrors);
      for (const hit of errors) {
        const call = await json<CallDto>(`/api/sessions/${row.id}/calls/${encodeURIComponent(hit.callId)}`);
        expect(call.status).toBe('error');
        expect(call.canonicalName).toBe(hit.tool);
        // the event at `index` holds the call itself, or the outermost Agent call to expand
        const page = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=${hit.index}&limit=1`);
        const event = page.events[0];
        const ids =
          event?.kind === 'assistant' ? event.items.flatMap((i) => (i.kind === 'tool-call' ? [i.id] : [])) : [];
        expect(ids).toContain(hit.expand[0] ?? hit.callId);
        if (hit.expand.length > 0) insideSubagents++;
        checked++;
      }
      // an Agent call's subagent counts the errors reached through it
      for (const sub of detail.subagents) {
        if (!sub.parentCallId) continue;
        const through = errors.filter((e) => e.expand.includes(sub.parentCallId ?? ''));
        expect(sub.errors + sub.expectedErrors, sub.key).toBe(through.length);
        expect(sub.expectedErrors, sub.key).toBe(through.filter((e) => e.severity === 'expected').length);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(insideSubagents).toBeGreaterThan(0);
    // the samples' 400 and 500 that ended their turns
    expect(requests).toBe(2);
  });
});

describe('GET /api/sessions/:id/find', () => {
  it('finds a command of a Bash call, at its event, and nothing for text that is not there', async () => {
    let found = 0;
    for (const row of (await allSessions()).slice(0, 12)) {
      const page = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=0&limit=500`);
      for (const event of page.events) {
        if (event.kind !== 'assistant') continue;
        for (const item of event.items) {
          if (item.kind !== 'tool-call' || item.canonicalName !== 'Bash') continue;
          const command = (item.input as { command?: unknown }).command;
          if (typeof command !== 'string' || command.length < 6) continue;
          const q = command.slice(0, 24).toUpperCase();
          const r = await json<FindResponse>(`/api/sessions/${row.id}/find?q=${encodeURIComponent(q)}`);
          expect(r.total).toBeGreaterThanOrEqual(1);
          expect(r.hits.some((h) => h.callId === item.id && h.index === event.index && h.part === 'tool')).toBe(true);
          for (const h of r.hits) expect(h.snippet.toLowerCase()).toContain(q.toLowerCase().split(/\s+/)[0]);
          found++;
          break;
        }
      }
    }
    expect(found).toBeGreaterThan(0);
    const first = (await allSessions())[0];
    const none = await json<FindResponse>(`/api/sessions/${first?.id}/find?q=${encodeURIComponent('zq-not-there-xq')}`);
    expect(none).toEqual({ query: 'zq-not-there-xq', total: 0, hits: [] });
    const res = await t.app.request(`/api/sessions/${first?.id}/find`, { headers: HOST });
    expect(res.status).toBe(400);
  });

  it('finds a call by the name the timeline shows when it is not the name written (TaskStop for KillShell)', async () => {
    let found = 0;
    for (const row of await allSessions()) {
      const page = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=0&limit=500`);
      for (const event of page.events) {
        if (event.kind !== 'assistant') continue;
        for (const item of event.items) {
          if (item.kind !== 'tool-call' || item.canonicalName === item.name) continue;
          const r = await json<FindResponse>(
            `/api/sessions/${row.id}/find?q=${encodeURIComponent(item.canonicalName)}`,
          );
          expect(
            r.hits.some((h) => h.callId === item.id),
            `${item.name} as ${item.canonicalName}`,
          ).toBe(true);
          found++;
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('finds the words of every note the timeline shows, at its event, as the note reads', async () => {
    let found = 0;
    for (const row of await allSessions()) {
      const page = await json<EventsPage>(`/api/sessions/${row.id}/events?offset=0&limit=500`);
      for (const event of page.events) {
        if (event.kind !== 'note' || event.source === 'unknown') continue;
        // a word of the note (a slash command's `/compact`, its output, a compaction)
        const word = /[A-Za-z]{5,}/.exec(event.text.replace(/<[^>]*>/g, ' '))?.[0];
        if (word === undefined) continue;
        const r = await json<FindResponse>(`/api/sessions/${row.id}/find?q=${encodeURIComponent(word)}`);
        const hit = r.hits.find((h) => h.index === event.index && h.part === 'note');
        expect(hit, `${row.id} ${event.index} ${word}`).toBeDefined();
        expect(hit?.snippet).not.toMatch(/<\/?[a-z-]+>/);
        found++;
      }
    }
    expect(found).toBeGreaterThan(3);
  });
});
