/**
 * End-to-end, in real Chromium: what "Resume" copies. The same session in two homes (a copy of a Claude Code folder,
 * the same project folder name) is named by a stored key, a path, in the dashboard's address; Claude Code resumes by
 * the bare session id. A session whose main file is missing (only its subagents' files) offers no Resume at all.
 */
import { cp, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionsResponse } from '@agentdash/api';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const projects = resolve(here, '../../cli/samples/claude-home/projects');
const TWICE = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
const NO_MAIN = '410c10d6-fdc3-4c91-bc4f-74b883942e01';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('Resume, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-resume-', async (homes) => {
    for (const home of ['a', 'b']) {
      const folder = join(homes, home, 'projects', '-home-user-proj-files');
      await mkdir(folder, { recursive: true });
      await cp(join(projects, '-home-user-proj-files', `${TWICE}.jsonl`), join(folder, `${TWICE}.jsonl`));
    }
    // a session of subagents' files alone: its main file is not there
    const subagents = join('-home-user-proj-subagents', NO_MAIN);
    await cp(join(projects, subagents), join(homes, 'a', 'projects', subagents), { recursive: true });
    return [join(homes, 'a'), join(homes, 'b')];
  });

  const rows = async () => {
    const url = new URL('api/sessions?limit=1000', ui.served.server.url);
    return ((await (await fetch(url)).json()) as SessionsResponse).sessions;
  };

  it('copies the bare session id of a session whose reference is a path', async () => {
    const twice = (await rows()).filter((r) => r.id.includes(TWICE));
    expect(twice.map((r) => r.id.includes('/'))).toEqual([true, true]);
    const { context, page } = await newPage(ui.browser);
    for (const row of twice) {
      await page.goto(new URL(`#/s/${encodeURIComponent(row.id)}`, ui.served.server.url).toString());
      await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 15_000 });
      const title = await page.locator('[data-testid=copy-resume]').getAttribute('title', { timeout: 15_000 });
      expect(title).toBe(`Copy: cd ${row.projectPath} && claude --resume ${TWICE}`);
    }
    await context.close();
  }, 60_000);

  it('offers no Resume for a session without its main file', async () => {
    const row = (await rows()).find((r) => r.id.includes(NO_MAIN));
    if (!row) throw new Error('the session of subagents alone is not listed');
    const { context, page } = await newPage(ui.browser);
    await page.goto(new URL(`#/s/${encodeURIComponent(row.id)}`, ui.served.server.url).toString());
    await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 15_000 });
    await page.locator('[data-testid=issues-toggle]').waitFor({ timeout: 15_000 });
    // the issues come after the header: wait until they have (the notice they feed, or a quiet moment)
    await page.waitForLoadState('networkidle');
    expect(await page.locator('[data-testid=copy-resume]').count()).toBe(0);
    await context.close();
  }, 60_000);
});
