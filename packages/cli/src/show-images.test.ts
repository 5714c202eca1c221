/**
 * `show` names a prompt's pasted images (a terminal cannot show them): a prompt with three images printed as plain
 * text, and one of an image alone as an empty `▶` (a review), where the Markdown export says `*3 images*`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-show-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("names a prompt's images after its text", async () => {
  const session = '5b0e1a6e-0000-4000-8000-000000000001';
  const at = basesOf(session);
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
  writeLines(join(dir, 'home', '.claude', 'projects', '-tmp-shots', `${session}.jsonl`), [
    prompt(at('u1', null, 1), [{ type: 'text', text: 'look at these' }, image, image, image]),
    assistantText(at('a1', 'u1', 2), 'msg_1', 'Seen.'),
    prompt(at('u2', 'a1', 3), [image]),
  ]);
  const { code, stdout } = await runCli(['show', session], { home: join(dir, 'home'), db: join(dir, 'index.sqlite') });
  expect(code).toBe(0);
  const prompts = stdout.split('\n').filter((line) => line.includes('▶'));
  expect(prompts.map((line) => line.slice(line.indexOf('▶')))).toEqual(['▶ look at these [3 images]', '▶ [an image]']);
});
