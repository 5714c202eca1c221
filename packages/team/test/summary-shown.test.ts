/**
 * A session pushed at the summary tier is shown or hidden in the team's list as in the laptop's (the rule that hides
 * an empty or warm-up session: no title and no tool call), although its title stays on the laptop. Before payload 6
 * and migration 18, every summary-tier session without a tool call was hidden there, a chat of a prompt and an answer
 * among them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite } from './pg-harness.js';
import { samplesWithACopy } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

/** The samples with a resumed copy's session (no title, no call), and a chat (a prompt and an answer, no tool call). */
function homeWithAChatAndACopy(dir: string): string {
  const home = samplesWithACopy(join(dir, 'home'));
  const chat = join(home, 'projects', '-home-user-proj-chat');
  mkdirSync(chat, { recursive: true });
  const id = 'cccccccc-0000-4000-8000-000000000000';
  const common = { sessionId: id, cwd: '/home/user/proj/chat', version: '2.1.0', isSidechain: false };
  const lines = [
    {
      ...common,
      type: 'user',
      uuid: 'c0000000-0000-4000-8000-000000000001',
      parentUuid: null,
      timestamp: '2026-11-01T10:00:00.000Z',
      message: { role: 'user', content: 'What does a monad look like in TypeScript?' },
    },
    {
      ...common,
      type: 'assistant',
      uuid: 'c0000000-0000-4000-8000-000000000002',
      parentUuid: 'c0000000-0000-4000-8000-000000000001',
      timestamp: '2026-11-01T10:00:05.000Z',
      requestId: 'req_chat_1',
      message: {
        id: 'msg_chat_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: 'An interface with `of` and `flatMap`, and laws they keep.' }],
        usage: { input_tokens: 12, output_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
  ];
  writeFileSync(join(chat, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return home;
}

pgSuite('the summary tier in the team list (real PostgreSQL, the real push client)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  let local: ReturnType<typeof createApp>;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-summary-shown-'));
    const home = homeWithAChatAndACopy(dir);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([home]);
    local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
    const report = await team.pushIndex(index, { tier: 'summary' });
    expect(report.stored).toBe(report.sessions);
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  type List = { total: number; hiddenEmpty?: number; sessions: { id: string; toolCalls: number }[] };
  const localJson = async (path: string): Promise<List> =>
    (await (await local.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as List;
  const teamJson = async (path: string): Promise<List> => (await team.request('GET', path)).json as unknown as List;

  it('shows the sessions the laptop shows, and hides those it hides', async () => {
    const mine = await localJson('/api/sessions?hideEmpty=1&limit=100');
    const theirs = await teamJson('/api/sessions?hideEmpty=1&limit=100');
    // the chat is shown by the laptop (a title from its prompt), the copy hidden
    expect(mine.sessions.some((s) => s.toolCalls === 0)).toBe(true);
    expect(mine.hiddenEmpty).toBe(1);
    // Before: the chat hidden on the team too, 1 fewer listed and 2 hidden.
    expect([theirs.total, theirs.hiddenEmpty]).toEqual([mine.total, mine.hiddenEmpty]);
    const all = await teamJson('/api/sessions?limit=100');
    expect(all.total).toBe((await localJson('/api/sessions?limit=100')).total);
  });
});
