/**
 * `show` names a prompt's pasted images (a terminal cannot show them): a prompt with three images printed as plain
 * text, and one of an image alone as an empty `▶` (a review), where the Markdown export says `*3 images*`. A
 * message sent while the agent worked (a queued message) with images the same, in `show` and the Markdown export: one
 * of an image alone was not shown at all (a review of this stop's diff).
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
    queued(at('q1', 'u2', 4), [image, { type: 'text', text: 'like this one' }]),
    queued(at('q2', 'q1', 5), [image]),
  ]);
  const { code, stdout } = await runCli(['show', session], { home: join(dir, 'home'), db: join(dir, 'index.sqlite') });
  expect(code).toBe(0);
  const prompts = stdout.split('\n').filter((line) => line.includes('▶'));
  expect(prompts.map((line) => line.slice(line.indexOf('▶')))).toEqual(['▶ look at these [3 images]', '▶ [an image]']);
  const queuedLines = stdout.split('\n').filter((line) => line.includes('while the agent worked'));
  expect(queuedLines.map((line) => line.slice(line.indexOf(':', 12) + 2))).toEqual([
    'like this one [an image]',
    '[an image]',
  ]);
  const md = await runCli(['export', session, '--format', 'markdown'], {
    home: join(dir, 'home'),
    db: join(dir, 'index.sqlite'),
  });
  expect(md.stdout.match(/while the agent worked\*[^\n]*\n\n(?:[^\n]+\n\n)?\*an image\*/g)?.length).toBe(2);
});

/** A message typed while the agent worked, as Claude Code 2.1.x writes it (an attachment, wild agent-sessions-1). */
function queued(base: ReturnType<ReturnType<typeof basesOf>>, content: unknown): string {
  return JSON.stringify({
    ...JSON.parse(prompt(base, '')),
    type: 'attachment',
    message: undefined,
    attachment: { type: 'queued_command', prompt: content, commandMode: 'prompt' },
  });
}
