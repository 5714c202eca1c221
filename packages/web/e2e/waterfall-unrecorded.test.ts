/**
 * End-to-end: the waterfall draws the time no record covers (as Claude Code writes it: an answer, three minutes of
 * nothing, then its `away_summary` record; the next prompt a little later), says in the legend what the stripes are,
 * and the tip over them says how long and what the time totals count it as: the person's, as the session's time
 * split does. Before, that stretch was blank, and the session's time counted it without the picture showing where.
 * Over the other bands, the tip names them too (waiting for you, the model).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WaterfallResponse } from '@agentdash/api';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANE_H, labelWidth, laneLayout } from '../src/ui/waterfall-geometry';
import { e2eMissing, openChromium, type ServedIndex, serveIndexOf } from './harness';

const SESSION = '0c97beba-0000-4000-8000-0000000000aa';
const missing = e2eMissing('e2e waterfall unrecorded');

function writeSession(home: string): void {
  const at = basesOf(SESSION);
  const minute = (m: number, s: number) => `2026-01-02T10:0${m}:${String(s).padStart(2, '0')}.000Z`;
  const away = {
    type: 'system',
    subtype: 'away_summary',
    content: 'The user stepped away.',
    parentUuid: 'a1',
    isSidechain: false,
    sessionId: SESSION,
    cwd: '/home/user/proj/demo',
    version: '2.1.330',
    uuid: 's1',
    timestamp: minute(3, 5),
  };
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), [
    prompt(at('u0', null, 0), 'What does this repository do?'),
    assistantText(at('a1', 'u0', 5), 'msg_1', 'It builds a dashboard.'),
    JSON.stringify(away),
    prompt({ ...at('u2', 's1', 0), timestamp: minute(3, 20) }, 'Thanks. And its tests?'),
    assistantText({ ...at('a3', 'u2', 0), timestamp: minute(3, 25) }, 'msg_2', 'They run with npm test.'),
  ]);
}

describe.skipIf(missing !== undefined)('the waterfall shows the time no record covers (headless Chromium)', () => {
  let home: string;
  let served: ServedIndex;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'agentdash-e2e-wf-gap-'));
    writeSession(home);
    served = await serveIndexOf('agentdash-e2e-wf-gap-', [home]);
  });
  afterAll(async () => {
    await served?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('as stripes the legend names, the tip saying how long and that it counts as the person’s time', async () => {
    const waterfall = (await (
      await fetch(new URL(`/api/sessions/${SESSION}/waterfall`, served.server.url))
    ).json()) as WaterfallResponse;
    const [main] = waterfall.lanes;
    // from the answer (10:00:05) to the away_summary record (10:03:05), counted as the person's
    expect(main?.unrecorded).toEqual([
      { startMs: Date.parse('2026-01-02T10:00:05Z'), endMs: Date.parse('2026-01-02T10:03:05Z'), countedAs: 'user' },
    ]);
    const { context, page } = await openChromium({ viewport: { width: 1280, height: 600 } });
    await page.goto(new URL(`#/s/${SESSION}/waterfall`, served.server.url).toString());
    const canvas = page.getByTestId('waterfall-canvas');
    await canvas.waitFor();
    expect(await page.getByTestId('wf-unrecorded-legend').innerText()).toBe(
      'no record (counted as the time around it)',
    );
    const box = await canvas.boundingBox();
    if (!box || !main) throw new Error('no waterfall');
    const xOf = (t: number) =>
      box.x +
      labelWidth(box.width) +
      ((t - waterfall.startMs) / (waterfall.endMs - waterfall.startMs)) * (box.width - labelWidth(box.width));
    const y = box.y + (laneLayout(waterfall.lanes)[0]?.y ?? 0) + LANE_H / 2;
    const gap = main.unrecorded[0];
    await page.mouse.move(xOf(((gap?.startMs ?? 0) + (gap?.endMs ?? 0)) / 2), y);
    const tip = page.getByTestId('waterfall-band-tip');
    expect(await tip.getAttribute('data-kind')).toBe('unrecorded');
    expect(await tip.innerText()).toMatch(
      /^no record for 3 min, counted as your time: after an answer, .* · main thread$/,
    );
    // the wait before the next prompt, from the away_summary record: waiting for you
    const wait = main.user[0];
    await page.mouse.move(xOf(((wait?.startMs ?? 0) + (wait?.endMs ?? 0)) / 2), y);
    expect(await tip.getAttribute('data-kind')).toBe('waiting');
    expect(await tip.innerText()).toBe('waiting for you for 15 s · main thread');
    await page.mouse.move(box.x + 5, box.y + box.height - 2);
    expect(await tip.count()).toBe(0);
    await context.close();
  });
});
