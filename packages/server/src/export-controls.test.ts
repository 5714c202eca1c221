/**
 * The dashboard's Markdown export, as the CLI's, shows a transcript's control characters as symbols: it wrote them
 * raw (a review of this stop's diff: `ESC]0;pwned BEL` and `ESC[2J` through `serve`), and a reader's `cat` of the
 * file would run them. Tabs and line breaks are kept.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';

const SESSION = 'e5c00000-0000-4000-8000-0000000000c1';
let t: TestApp;

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'agentdash-export-controls-'));
  const at = basesOf(SESSION);
  writeLines(join(home, 'projects', '-tmp-controls', `${SESSION}.jsonl`), [
    prompt(at('u1', null, 1), 'Run \u001b]0;pwned\u0007 it\u001b[2J\tnow\nplease'),
    assistantText(at('a1', 'u1', 2), 'msg_1', 'Done \u202eevil'),
  ]);
  t = await appOver([home]);
});
afterAll(() => t.close());

it('writes no control character but tabs and line breaks, each shown as a symbol', async () => {
  const res = await t.app.request(`/api/sessions/${SESSION}/export?format=markdown`, {
    headers: { host: '127.0.0.1:4317' },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  expect(text.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/g) ?? []).toEqual([]);
  expect(text).toContain('Run ␛]0;pwned␇ it␛[2J\tnow');
  expect(text).toContain('Done \ufffdevil');
});
