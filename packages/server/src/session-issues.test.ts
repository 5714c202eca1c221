/**
 * A session's issues tab lists what its header counts. The header (index session-header.ts) counts the stored parse
 * issues plus what pairing finds over the kept records (a result whose call is nowhere in the session, a second
 * result of an id); the `/issues` route listed the stored ones and unreadable files only, so a badge said "1 issue"
 * over "No issues." (../shared/corpus-agents Codex 0.169.0 misc: an orphan `function_call_output`).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SessionDetail } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const PROJECT = 'projects/-home-user-proj-shell';
const ID = 'f0835e0b-b4c6-4910-817c-346fd7332302';
const HOST = { host: '127.0.0.1:4317' };

let tmp: string;
let index: AgentIndex;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-session-issues-'));
  const lines = (await readFile(join(samples, PROJECT, `${ID}.jsonl`), 'utf8')).split('\n');
  const first = JSON.parse(lines[0] ?? '{}');
  // two results without their calls on one line: two issues
  const orphan = {
    ...first,
    uuid: '0e1f0000-0000-4000-8000-00000000a0a0',
    message: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_nowhere', content: 'lost' },
        { type: 'tool_result', tool_use_id: 'toolu_nowhere2', content: 'lost too' },
      ],
    },
  };
  lines.splice(3, 0, '{"type":"user","message":{"content":"broken', JSON.stringify(orphan));
  await mkdir(join(tmp, 'home', PROJECT), { recursive: true });
  await writeFile(join(tmp, 'home', PROJECT, `${ID}.jsonl`), lines.join('\n'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([join(tmp, 'home')]);
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

it('lists every issue the header counts: a malformed line and a result without its call', async () => {
  const app = createApp({ index, paths: [join(tmp, 'home')], host: '127.0.0.1', port: 4317, assetsDir: tmp });
  const get = async <T>(path: string) => (await (await app.request(path, { headers: HOST })).json()) as T;
  const detail = await get<SessionDetail>(`/api/sessions/${ID}`);
  const listed = await get<{ issues: { code: string; line: number }[] }>(`/api/sessions/${ID}/issues`);
  expect(listed.issues.map((i) => [i.code, i.line])).toEqual([
    ['invalid_json', 4],
    ['orphan_result', 5],
    ['orphan_result', 5],
  ]);
  expect(detail.issues).toBe(listed.issues.length);
});
