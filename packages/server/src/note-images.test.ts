/**
 * Images beside a session's words are never dropped without a word (a review): a message typed while the agent worked
 * with a pasted image (a queued message: an `attachment`, wild agent-sessions-1 line 45's shape) showed its text
 * alone, and one with the image alone was not shown at all; an image in the user message holding a tool result,
 * with no text beside it, made no event. Both are notes with their images now, in the timeline's pages.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { EventsPage } from './api-types.js';

const SESSION = '407e0000-0000-4000-8000-0000000001a6';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };
let t: TestApp;

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'agentdash-note-images-'));
  const at = basesOf(SESSION);
  const queued = (uuid: string, second: number, content: unknown) =>
    JSON.stringify({
      ...JSON.parse(prompt(at(uuid, 'u1', second), '')),
      type: 'attachment',
      message: undefined,
      attachment: { type: 'queued_command', prompt: content, commandMode: 'prompt' },
    });
  const resultWithImage = JSON.stringify({
    ...JSON.parse(prompt(at('r1', 'a1', 5), '')),
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }, image],
    },
  });
  writeLines(join(home, 'projects', '-tmp-notes', `${SESSION}.jsonl`), [
    prompt(at('u1', null, 1), 'Fix the layout.'),
    queued('q1', 2, [image, { type: 'text', text: 'like this one' }]),
    queued('q2', 3, [image]),
    toolUse(at('a1', 'q2', 4), 'msg_1', 'toolu_1', 'Bash', { command: 'make' }),
    resultWithImage,
  ]);
  t = await appOver([home]);
});
afterAll(() => t.close());

it('shows a queued message with its image, one of an image alone, and an image beside a tool result', async () => {
  const notesOf = (page: EventsPage) =>
    page.events.flatMap((e) => (e.kind === 'note' ? [[e.label, e.text, (e.images ?? []).map((i) => i.data)]] : []));
  // by default: the queued messages (the person's words)
  expect(notesOf(await t.json<EventsPage>(`/api/sessions/${SESSION}/events`))).toEqual([
    ['queued-prompt', 'like this one', [PNG]],
    ['queued-prompt', '', [PNG]],
  ]);
  // with the client's bookkeeping: the image in the tool result's message too
  expect(notesOf(await t.json<EventsPage>(`/api/sessions/${SESSION}/events?all=true`))).toEqual([
    ['queued-prompt', 'like this one', [PNG]],
    ['queued-prompt', '', [PNG]],
    ['tool-result-extra', '', [PNG]],
  ]);
});
