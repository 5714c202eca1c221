import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDto, EventsPage, SessionDetail } from './api-types.js';
import { createApp } from './app.js';
import { STRING_LIMIT } from './session-view.js';

const ID = '11111111-2222-4333-8444-555555555555';
const PAIRS = 10_000; // 20,001 records

/** A generated session: one prompt, then 10,000 Bash calls with their results; every 100th result is large. */
function bigSession(): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/user/big', sessionId: ID, version: '2.1.330' };
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const lines: string[] = [];
  let n = 0;
  let t = Date.parse('2026-01-01T00:00:00Z');
  lines.push(
    JSON.stringify({
      ...base,
      parentUuid: null,
      type: 'user',
      message: { role: 'user', content: 'Big' },
      uuid: uuid(++n),
      timestamp: new Date(t).toISOString(),
    }),
  );
  for (let i = 0; i < PAIRS; i++) {
    t += 1000;
    const id = `toolu_${String(i).padStart(20, '0')}`;
    lines.push(
      JSON.stringify({
        ...base,
        parentUuid: uuid(n),
        type: 'assistant',
        uuid: uuid(++n),
        timestamp: new Date(t).toISOString(),
        message: {
          id: `msg_${i}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5-5',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command: `echo ${i}` } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      }),
    );
    const output = i % 100 === 0 ? 'x'.repeat(STRING_LIMIT * 2) : `${i}`;
    lines.push(
      JSON.stringify({
        ...base,
        parentUuid: uuid(n),
        type: 'user',
        uuid: uuid(++n),
        timestamp: new Date(t + 40).toISOString(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
        toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('a 20,000-record session', () => {
  let tmp: string;
  let index: AgentIndex;
  let app: ReturnType<typeof createApp>;
  const get = (path: string) => app.request(path, { headers: { host: '127.0.0.1:4317' } });

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-scale-'));
    const project = join(tmp, 'home', 'projects', '-home-user-big');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${ID}.jsonl`), bigSession());
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([join(tmp, 'home')]);
    app = createApp({ index, paths: [join(tmp, 'home')], host: '127.0.0.1', port: 4317, assetsDir: tmp });
  }, 120_000); // indexing 20,000 records takes a while on a busy machine

  afterAll(async () => {
    index.close();
    await rm(tmp, { recursive: true, force: true });
  });

  // How fast is measured by the benchmarks (bench/run.mjs, bench/load.mjs), never asserted here.
  it('opens and pages its timeline', async () => {
    const detail = (await (await get(`/api/sessions/${ID}`)).json()) as SessionDetail;
    expect(detail.totalEvents).toBe(PAIRS + 1);

    const res = await get(`/api/sessions/${ID}/events?offset=${PAIRS - 99}&limit=100`);
    const page = (await res.json()) as EventsPage;
    expect(page.events.length).toBe(100);
    expect(page.events[99]?.index).toBe(PAIRS);
  });

  it('truncates large outputs in pages and serves them whole per call', async () => {
    const page = (await (await get(`/api/sessions/${ID}/events?offset=1&limit=1`)).json()) as EventsPage;
    const event = page.events[0]!;
    if (event.kind !== 'assistant') throw new Error('expected an assistant event');
    const call = event.items[0] as CallDto;
    expect(call.truncated).toBe(true);
    expect(String(call.result?.content).length).toBeLessThanOrEqual(STRING_LIMIT);
    const full = (await (await get(`/api/sessions/${ID}/calls/${call.id}`)).json()) as CallDto;
    expect(full.truncated).toBe(false);
    expect(String(full.result?.content).length).toBe(STRING_LIMIT * 2);
  });

  it("serves a call with each text cut at `chars` (at least the pages' cut), and refuses a bad one", async () => {
    const page = (await (await get(`/api/sessions/${ID}/events?offset=1&limit=1`)).json()) as EventsPage;
    const event = page.events[0];
    if (event?.kind !== 'assistant') throw new Error('expected an assistant event');
    const { id } = event.items[0] as CallDto;
    const cut = async (chars: string) =>
      (await (await get(`/api/sessions/${ID}/calls/${id}?chars=${chars}`)).json()) as CallDto;
    const longest = (dto: CallDto) =>
      Math.max(
        ...JSON.stringify(dto)
          .match(/"(?:[^"\\]|\\.)*"/g)!
          .map((s) => (JSON.parse(s) as string).length),
      );
    const at = await cut(String(STRING_LIMIT + 500));
    expect([at.truncated, String(at.result?.content).length, longest(at)]).toEqual([
      true,
      STRING_LIMIT + 500,
      STRING_LIMIT + 500,
    ]);
    // below the pages' own cut: the pages' cut; above the longest text: whole, and said so
    expect(String((await cut('5')).result?.content).length).toBe(STRING_LIMIT);
    const whole = await cut(String(STRING_LIMIT * 3));
    expect([whole.truncated, String(whole.result?.content).length]).toEqual([false, STRING_LIMIT * 2]);
    for (const bad of ['-1', 'abc', '1.5'])
      expect((await get(`/api/sessions/${ID}/calls/${id}?chars=${bad}`)).status).toBe(400);
  });
});
