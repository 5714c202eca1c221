/**
 * Search indexes no image's base64: a command whose stdout is an image (`isImage`, a data URL: its content holds no
 * words, and the index fell back to the stdout) and a Read of an image as 1.x wrote it (the image block as a JSON
 * string) were indexed whole, 200,000 characters each, and a search for a run of their base64 found them with a
 * snippet of it (a review). The words beside them (a result's text, a command's stderr) are still found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = '5ea4c100-0000-4000-8000-00000000beef';
const DATA = 'iVBORw0KGgoQQZZBASEWORDAAAA'.repeat(20);

it("finds no run of an image output's base64, and the words beside it", async () => {
  const at = basesOf(SESSION);
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } };
  const lines = [
    prompt(at('u1', null, 1), 'Show me the chart.'),
    toolUse(at('a1', 'u1', 2), 'msg_1', 'toolu_plot', 'Bash', { command: 'plot --png' }),
    toolResult(at('r1', 'a1', 3), 'toolu_plot', '', false, {
      stdout: `data:image/png;base64,${DATA}`,
      stderr: 'plotter warned zzstderrword',
      isImage: true,
      interrupted: false,
    }),
    toolUse(at('a2', 'r1', 4), 'msg_2', 'toolu_read', 'Read', { file_path: '/tmp/chart.png' }),
    toolResult(at('r2', 'a2', 5), 'toolu_read', JSON.stringify([image]), false),
    toolUse(at('a3', 'r2', 6), 'msg_3', 'toolu_cat', 'Bash', { command: 'cat notes.txt' }),
    toolResult(at('r3', 'a3', 7), 'toolu_cat', 'QQZZBASEWORD as plain text zzplainword', false),
  ];
  const home = join(dir, 'home');
  writeLines(join(home, 'projects', '-tmp-images', `${SESSION}.jsonl`), lines);
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  try {
    await index.refresh([home]);
    const calls = async (q: string) => (await index.search(q)).map((h) => h.callId ?? h.kind);
    expect(await calls('iVBORw0KGgoQQZZBASEWORDAAAA*')).toEqual([]);
    expect(await calls('zzstderrword')).toEqual(['toolu_plot']);
    expect(await calls('QQZZBASEWORD')).toEqual(['toolu_cat']);
  } finally {
    index.close();
  }
});
