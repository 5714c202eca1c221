/**
 * Find in a session matches and cuts the text as the page shows it: terminal control text out. A command's output
 * with colours and cursor codes (../shared/wild fe5e1c67, an interactive prompt's `ESC[?25l ESC[2K ESC[1G ESC[36m?`)
 * gave snippets full of escape codes, and a phrase split by a colour code was not found; a result that is an array of
 * blocks was JSON first, its escapes `\u001b` text no plain rule could take out (review of 7601b5e). Through the
 * server's route, so the wiring is tested too.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindResponse } from './api-types.js';
import { createApp } from './app.js';

const ID = 'f1d00000-0000-4000-8000-00000000c0de';
const OUTPUT =
  '\u001b[?25l\u001b[2K\u001b[1G\u001b[36m?\u001b[39m \u001b[1mWould you like\u001b[22m your code checked?';
let tmp: string;
let index: AgentIndex;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-find-plain-'));
  const project = join(tmp, 'home', 'projects', '-tmp-find');
  await mkdir(project, { recursive: true });
  const base = { sessionId: ID, cwd: '/tmp/find', version: '2.1.20', isSidechain: false, userType: 'external' };
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const call = (n: number) => ({ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: `init ${n}` } });
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: 'Go.' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: at(1),
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [call(1), call(2)] },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a1',
      timestamp: at(2),
      message: {
        role: 'user',
        content: [
          // one result a string, the other an array of blocks
          { type: 'tool_result', tool_use_id: 'toolu_1', content: OUTPUT },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: OUTPUT }] },
        ],
      },
    },
  ];
  await writeFile(join(project, `${ID}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([join(tmp, 'home')]);
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('find over terminal output', () => {
  it('finds a phrase a colour code splits in both results, each snippet without control text', async () => {
    const app = createApp({ index, paths: [join(tmp, 'home')], host: '127.0.0.1', port: 4317, assetsDir: tmp });
    const res = await app.request(`/api/sessions/${ID}/find?q=would%20you%20like%20your%20code`, {
      headers: { host: '127.0.0.1:4317' },
    });
    const found = (await res.json()) as FindResponse;
    expect(found.hits.map((h) => h.callId)).toEqual(['toolu_1', 'toolu_2']);
    for (const hit of found.hits) {
      expect(hit.snippet).toContain('? Would you like your code checked?');
      expect(hit.snippet).not.toContain('\u001b');
      expect(hit.snippet).not.toContain('\\u001b');
    }
  });
});
