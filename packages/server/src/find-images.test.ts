/**
 * Find in a session does not read an image's or a file's bytes: a result holding an image (a Read of a PNG, an MCP
 * tool's screenshot) or a PDF was JSON with its base64 in it, and a word the base64 happens to spell matched it with
 * a snippet of base64 (a review: `wolf` and `zip` each found 4 calls of a session none of which holds the word).
 * The text beside the image is still found. Through the server's route, so the wiring is tested too.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { FindResponse } from './api-types.js';

const ID = 'f1d00000-0000-4000-8000-0000000013a6';
/** Base64 that spells words: the bytes of an image are any bytes. */
const DATA = 'iVBORw0KGgoWOLFzipAAAA'.repeat(50);
let t: TestApp;

beforeAll(async () => {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-find-images-'));
  const project = join(tmp, 'home', 'projects', '-tmp-find');
  await mkdir(project, { recursive: true });
  const base = { sessionId: ID, cwd: '/tmp/find', version: '2.1.20', isSidechain: false, userType: 'external' };
  const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } };
  const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: DATA } };
  const read = (n: number, path: string) => ({ type: 'tool_use', id: `toolu_${n}`, name: 'Read', input: { path } });
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
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [read(1, 'shot.png'), read(2, 'spec.pdf')],
      },
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
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'A pale sky.' }, image] },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [pdf] },
        ],
      },
    },
  ];
  await writeFile(join(project, `${ID}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  t = await appOver([join(tmp, 'home')]);
});
afterAll(() => t.close());

const find = (q: string) => t.json<FindResponse>(`/api/sessions/${ID}/find?q=${encodeURIComponent(q)}`);

describe('find beside images and documents', () => {
  it('finds no word in their base64, and the text beside an image', async () => {
    expect((await find('wolf')).total).toBe(0);
    expect((await find('zip')).total).toBe(0);
    expect((await find('pale sky')).hits.map((h) => h.callId)).toEqual(['toolu_1']);
    expect((await find('spec.pdf')).hits.map((h) => h.callId)).toEqual(['toolu_2']);
  });
});
