/**
 * End-to-end: two agents whose series share a version (here a Claude Code session written as 0.50.0 beside Codex
 * 0.50.0's fixture home). The version menu lists it under each agent's name; choosing Codex's 0.50.0 listed the
 * Claude Code session too, as the menu set the version alone. It sets the agent with it now, and choosing another
 * agent lets go of a version that agent has no session of.
 */
import { join, resolve } from 'node:path';
import { assistantText, prompt, type RecordBase, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle, newPage, servedHome } from './harness';

const missing = e2eMissing();
const codexHome = resolve(import.meta.dirname, '../../core/test/fixtures/codex/0.50.0/codex-home');
const IDS = ['fe1a0050-0000-4000-8000-000000000050', 'fe1a2130-0000-4000-8000-000000002130'] as const;

/** A Claude Code session of one prompt and reply, written by `version`, in `home`. */
function claudeSession(home: string, id: string, version: string): void {
  const at = (uuid: string, parent: string | null, second: number): RecordBase => ({
    sessionId: id,
    uuid: `${id}-${uuid}`,
    parentUuid: parent === null ? null : `${id}-${parent}`,
    timestamp: `2026-03-04T10:00:0${second}.000Z`,
  });
  writeLines(
    join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`),
    [prompt(at('u1', null, 1), 'Say hello'), assistantText(at('a1', 'u1', 2), `msg_${id}`, 'Hello.')].map((line) =>
      line.replace('"version":"2.1.330"', `"version":"${version}"`),
    ),
  );
}

describe.skipIf(missing !== undefined)('a version two agents share, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-version-agent-', (home) => {
    const claude = join(home, 'claude');
    claudeSession(claude, IDS[0], '0.50.0');
    claudeSession(claude, IDS[1], '2.1.330');
    return [claude, codexHome];
  });

  it("chooses the agent with a version chosen under the agent's name", async () => {
    const { context, page } = await newPage(ui.browser);
    await page.goto(new URL('#/', ui.served.server.url).toString());
    await page.getByTestId('session-row').first().waitFor();
    await idle(page);
    const agents = () => page.getByTestId('agent-badge').allTextContents();
    expect(new Set(await agents()).size).toBe(2);
    const groups = await page
      .getByTestId('filter-version')
      .evaluate((select) =>
        [...select.querySelectorAll('optgroup')].map((g) => [
          g.label,
          [...g.querySelectorAll('option')].map((o) => o.textContent),
        ]),
      );
    expect(groups).toEqual([
      ['Claude Code', ['v0.50.0', 'v2.1.330']],
      ['Codex', ['v0.50.0']],
    ]);

    // All versions, Claude Code's two, Codex's one
    await page.getByTestId('filter-version').selectOption({ index: 3 });
    await expect.poll(() => page.getByTestId('filter-agent').inputValue()).toBe('codex');
    await idle(page);
    const codexOnly = new Set(await agents());
    expect(codexOnly.size).toBe(1);
    expect([...codexOnly][0]).toMatch(/codex/i);
    expect(await page.getByTestId('filter-version').inputValue()).toBe('0.50.0');

    // Claude Code chosen: it has a 0.50.0 too, kept; its menu lists its versions alone
    await page.getByTestId('filter-agent').selectOption('claude');
    await idle(page);
    expect(await page.getByTestId('filter-version').inputValue()).toBe('0.50.0');
    expect(await page.getByTestId('session-row').count()).toBe(1);
    // Claude Code's 2.1.330, then Codex: it has no session of 2.1.330, so every Codex session is listed again
    await page.getByTestId('filter-version').selectOption('2.1.330');
    await idle(page);
    await page.getByTestId('filter-agent').selectOption('codex');
    await idle(page);
    expect(await page.getByTestId('filter-version').inputValue()).toBe('');
    expect(new Set(await agents())).toEqual(codexOnly);
    // Codex chosen: the model menu lists Codex's models alone (it listed Claude Code's too, each choosing nothing)
    const models = await page
      .getByLabel('Model')
      .evaluate((select) => [...select.querySelectorAll('option')].map((o) => o.value).filter((v) => v !== ''));
    expect(models.length).toBeGreaterThan(0);
    expect(models.filter((m) => m.startsWith('claude'))).toEqual([]);
    await context.close();
  });
});
