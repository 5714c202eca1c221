/**
 * End-to-end: sessions whose projects end in the same two folders (two people's `…/entireio/cli`) and whose titles
 * are the same (one scenario run on two machines). The sessions list's project filter offered two identical
 * `…/entireio/cli`, Analytics' per-project chart drew them as one bar, and Usage's top sessions had two rows nobody
 * could tell apart. Each project has a label of its own now, and a titled row says its short id.
 */
import { join } from 'node:path';
import { assistantText, prompt, type RecordBase, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle, newPage, servedHome } from './harness';

const missing = e2eMissing();

const PROJECTS = ['/Users/paul/src/entireio/cli', '/Users/peyton/devenv/entireio/cli'] as const;
const IDS = ['5a3e01b1-0000-4000-8000-0000000000b1', '5a3e02b2-0000-4000-8000-0000000000b2'] as const;

/** A call and an answer in `cwd` on a priced model at `minute`, titled as the other. */
function session(home: string, id: string, cwd: string, minute: number): void {
  // ids of its own: a response or call met in two sessions is one copied from the other
  const at = (uuid: string, parent: string | null, second: number): RecordBase => ({
    sessionId: id,
    uuid: `${id}-${uuid}`,
    parentUuid: parent === null ? null : `${id}-${parent}`,
    timestamp: `2026-03-04T10:1${minute}:0${second}.000Z`,
    cwd,
  });
  writeLines(
    join(home, 'projects', cwd.replaceAll('/', '-'), `${id}.jsonl`),
    [
      prompt(at('u1', null, 1), 'Fix the release workflow'),
      toolUse(at('t1', 'u1', 2), `msg_${id}_1`, `toolu_${id}`, 'Bash', { command: 'make release' }),
      toolResult(at('r1', 't1', 3), `toolu_${id}`, 'ok', false),
      assistantText(at('a1', 'r1', 4), `msg_${id}_2`, 'Fixed.'),
    ].map((line) => line.replace('"claude-opus-5-5"', '"claude-sonnet-4-5-20250929"')),
  );
}

describe.skipIf(missing !== undefined)('projects and sessions of the same names, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-same-names-', (home) => {
    for (const [i, cwd] of PROJECTS.entries()) session(home, IDS[i] ?? '', cwd, i);
    return undefined;
  });

  it('tells them apart: the project filter, the per-project chart and the top sessions', async () => {
    const { context, page } = await newPage(ui.browser);
    const url = (hash: string) => new URL(hash, ui.served.server.url).toString();
    await page.goto(url('#/'));
    await page.getByTestId('session-row').first().waitFor();
    await idle(page);
    const options = (await page.getByTestId('filter-project').locator('option').allTextContents()).slice(1);
    expect(options.sort()).toEqual(['…/devenv/entireio/cli', '…/src/entireio/cli']);

    await page.goto(url('#/analytics'));
    // the category axis's labels (the value axis's are numbers)
    const labels = async () =>
      (await page.locator('[data-testid=chart-projects] .recharts-cartesian-axis-tick-value').allTextContents())
        .filter((t) => t.includes('/'))
        .sort();
    await expect.poll(labels, { timeout: 15_000 }).toEqual(['…/devenv/entireio/cli', '…/src/entireio/cli']);

    await page.goto(url('#/usage'));
    const where = page.getByTestId('top-session-where');
    await expect.poll(() => where.count(), { timeout: 15_000 }).toBe(2);
    expect((await where.allTextContents()).map((t) => t.split(' · ')[0]).sort()).toEqual(
      IDS.map((id) => id.slice(0, 8)).sort(),
    );
    await context.close();
  });
});
