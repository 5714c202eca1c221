/**
 * A timeline page holds each image of a result once, in the call's `images`: a Read of a PNG sent its bytes in the
 * result's content, again in `images` and a cut copy in the client's `file.base64`, and the cut copy marked the call
 * "Long output was shortened" (a review: a 5 MB image was a 10 MB event; "Show more" stayed shortened). A command's
 * image stdout (a data URL) is the same. The per-call endpoint's whole answer keeps everything as written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMAGE_ONCE_MARK } from '@agentdash/api';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { CallDto, EventsPage } from './api-types.js';

const SESSION = '1a6e0000-0000-4000-8000-00000000face';
/** Longer than a page's cut (12,000 characters). */
const DATA = 'iVBORw0KGgoAAAANSUhEUgAA'.repeat(1000);
/** A notebook cell's image output, as Claude Code's Read gives it: its renderer shows it from here. */
const notebookImage = { output_type: 'display_data', image: { image_data: DATA, media_type: 'image/png' } };
let t: TestApp;

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'agentdash-images-once-'));
  const at = basesOf(SESSION);
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } };
  writeLines(join(home, 'projects', '-tmp-images', `${SESSION}.jsonl`), [
    prompt(at('u1', null, 1), 'Look at the chart.'),
    toolUse(at('a1', 'u1', 2), 'msg_1', 'toolu_read', 'Read', { file_path: '/tmp/chart.png' }),
    JSON.stringify({
      ...JSON.parse(toolResult(at('r1', 'a1', 3), 'toolu_read', '', false)),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_read', content: [image] }] },
      toolUseResult: { type: 'image', file: { base64: DATA, type: 'image/png', originalSize: 18000 } },
    }),
    toolUse(at('a3', 'r1', 4), 'msg_3', 'toolu_nb', 'Read', { file_path: '/tmp/plot.ipynb' }),
    JSON.stringify({
      ...JSON.parse(toolResult(at('r3', 'a3', 4), 'toolu_nb', '', false)),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_nb', content: [image] }] },
      toolUseResult: {
        type: 'notebook',
        file: {
          filePath: '/tmp/plot.ipynb',
          cells: [{ cellType: 'code', source: 'plot()', cell_id: 'c1', outputs: [notebookImage] }],
        },
      },
    }),
    toolUse(at('a2', 'r3', 4), 'msg_2', 'toolu_plot', 'Bash', { command: 'plot --png' }),
    toolResult(at('r2', 'a2', 5), 'toolu_plot', '', false, {
      stdout: `data:image/png;base64,${DATA}`,
      stderr: '',
      isImage: true,
      interrupted: false,
    }),
  ]);
  t = await appOver([home]);
});
afterAll(() => t.close());

const callsOf = (page: EventsPage) =>
  page.events.flatMap((e) =>
    e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
  );

describe('images in a timeline page', () => {
  it("are sent once, in the call's images, and mark no call shortened", async () => {
    const page = await t.json<EventsPage>(`/api/sessions/${SESSION}/events`);
    const calls = callsOf(page);
    expect(calls.map((c) => [c.id, c.truncated, c.result?.images.map((i) => i.data.length)])).toEqual([
      ['toolu_read', false, [DATA.length]],
      ['toolu_nb', false, [DATA.length]],
      ['toolu_plot', false, [DATA.length]],
    ]);
    const body = JSON.stringify(page);
    // once per call, and the notebook cell's own image whole where its renderer reads it (a review: it was the mark,
    // and one over the page's cut was cut)
    expect(body.split(DATA).length - 1).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(calls[1]?.result?.toolUseResult)).toContain(`"image_data":"${DATA}"`);
    expect(JSON.stringify(calls[0])).not.toContain(`"base64":"${DATA}"`);
    expect(body).toContain(IMAGE_ONCE_MARK);
  });

  it("are kept as written in the per-call endpoint's whole answer", async () => {
    const call = await t.json<CallDto>(`/api/sessions/${SESSION}/calls/toolu_read`);
    expect(JSON.stringify(call.result?.toolUseResult)).toContain(DATA);
  });
});
