/**
 * End-to-end, in real Chromium: a jump to an error (`e`) opens the Agent calls on its own way, and only those. A call
 * the reader closed on an earlier jump's way stays closed at a jump elsewhere (each jump opened again every Agent
 * call of every jump so far), and opens again when a jump goes through it again.
 */
import { join } from 'node:path';
import type { SessionErrorsResponse } from '@agentdash/api';
import {
  assistantText,
  basesOf,
  prompt,
  type RecordBase,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, newPage, servedHome } from './harness';

const missing = e2eMissing();
const id = '0c97beba-0000-4000-8000-0000000000e2';
const agents = [
  { call: 'toolu_agent_first', agent: 'a1111111111111111', failing: 'toolu_bash_first', word: 'first' },
  { call: 'toolu_agent_second', agent: 'a2222222222222222', failing: 'toolu_bash_second', word: 'second' },
] as const;

/** A session of two Agent calls, each with a subagent whose one Bash call fails. */
function writeHome(home: string): void {
  const project = join(home, 'projects', '-home-user-proj-demo');
  const b = basesOf(id);
  const main = [prompt(b('u0', null, 0), 'Run both checks in subagents.')];
  let parent = 'u0';
  agents.forEach((a, i) => {
    const at = 1 + i * 10;
    main.push(
      toolUse(b(`c${i}`, parent, at), `msg_${i}`, a.call, 'Agent', {
        description: `The ${a.word} check`,
        prompt: `Run the ${a.word} check.`,
        subagent_type: 'general-purpose',
      }),
      toolResult(b(`r${i}`, `c${i}`, at + 8), a.call, `The ${a.word} check failed.`, false, {
        status: 'completed',
        agentId: a.agent,
        content: [{ type: 'text', text: `The ${a.word} check failed.` }],
        totalDurationMs: 6000,
      }),
    );
    parent = `r${i}`;
    const sb = (uuid: string, up: string | null, second: number): RecordBase => ({
      ...b(`${a.word}-${uuid}`, up === null ? null : `${a.word}-${up}`, second),
      isSidechain: true,
      agentId: a.agent,
    });
    writeLines(join(project, id, 'subagents', `agent-${a.agent}.jsonl`), [
      prompt(sb('s1', null, at + 1), `Run the ${a.word} check.`),
      toolUse(sb('s2', 's1', at + 2), `msg_${a.word}_1`, a.failing, 'Bash', { command: `npm test -- ${a.word}` }),
      toolResult(sb('s3', 's2', at + 4), a.failing, `Exit code 1\nFAIL ${a.word}`, true),
      assistantText(sb('s4', 's3', at + 5), `msg_${a.word}_2`, `The ${a.word} check failed.`),
    ]);
  });
  main.push(assistantText(b('end', parent, 30), 'msg_end', 'Both checks failed.'));
  writeLines(join(project, `${id}.jsonl`), main);
}

/** A session of 80 Bash calls, more than the timeline keeps mounted at once. */
const long = '0c97beba-0000-4000-8000-0000000000e3';
function writeLong(home: string): void {
  const b = basesOf(long);
  // the first response thinks before its call
  const thinking = JSON.parse(assistantText(b('t0', 'u0', 1), 'msg_l0', '')) as {
    message: { content: unknown[] };
  };
  thinking.message.content = [{ type: 'thinking', thinking: 'Plan every step first.', signature: '' }];
  const lines = [prompt(b('u0', null, 0), 'Run every step.'), JSON.stringify(thinking)];
  let parent = 't0';
  for (let i = 0; i < 80; i++) {
    lines.push(
      toolUse(b(`c${i}`, parent, 1 + 2 * i), `msg_l${i}`, `toolu_long_${i}`, 'Bash', { command: `make step-${i}` }),
      toolResult(b(`r${i}`, `c${i}`, 2 + 2 * i), `toolu_long_${i}`, `step ${i} done`, false),
    );
    parent = `r${i}`;
  }
  writeLines(join(home, 'projects', '-home-user-proj-long', `${long}.jsonl`), lines);
}

/** Whether the Agent call's block, and its subagent timeline, are open. */
const agentState = (page: Page, call: string) =>
  page.evaluate((call) => {
    const block = document.getElementById(`call-${call}`);
    return {
      call: block?.querySelector('[data-testid=tool-head]')?.getAttribute('aria-expanded') ?? null,
      subagent: block?.querySelector('[data-testid=subagent-toggle]')?.getAttribute('aria-expanded') ?? null,
    };
  }, call);

describe.skipIf(missing !== undefined)('a jump to an error opens its own way in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-jump-open-', (home) => {
    writeHome(home);
    writeLong(home);
    return undefined;
  });

  it('leaves closed an Agent call the reader closed on another jump’s way, and opens it at a jump through it', async () => {
    const res = await fetch(new URL(`api/sessions/${id}/errors`, ui.served.server.url));
    const { errors } = (await res.json()) as SessionErrorsResponse;
    expect(errors.map((e) => ({ callId: e.callId, expand: e.expand }))).toEqual(
      agents.map((a) => ({ callId: a.failing, expand: [a.call] })),
    );
    const { context, page } = await newPage(ui.browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(new URL(`#/s/${id}`, ui.served.server.url).toString());
    await page.waitForSelector('[data-testid=session-nav]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=next-error]')?.hasAttribute('disabled'));
    const [first, second] = agents;
    // `e` to the error of the given Agent call (two errors: `e` goes first, second, first, …), shown in its subagent
    const jumpTo = async (a: (typeof agents)[number]) => {
      await page.keyboard.press('e');
      await page.waitForSelector(`[data-testid=subagent-timeline] [id="call-${a.failing}"].highlight-flash`, {
        timeout: 20_000,
      });
      // The jump centres its call again a few times while the rows measure (use-jump.ts): a click is for a page at
      // rest, not one that may scroll its target from under the pointer (on a loaded machine a click missed so).
      await page.waitForFunction(
        async () => {
          const scroller = document.querySelector('[data-testid=timeline-scroll]');
          const before = scroller?.scrollTop;
          await new Promise((done) => setTimeout(done, 400));
          return scroller !== null && scroller.scrollTop === before;
        },
        undefined,
        { timeout: 20_000 },
      );
    };
    // A click, then the toggle's state once the page has drawn it (on a loaded machine, after the click's promise).
    const close = async (a: (typeof agents)[number], testId: 'tool-head' | 'subagent-toggle') => {
      const toggle = page.locator(`[id="call-${a.call}"] [data-testid=${testId}]`).first();
      await toggle.click();
      await toggle.and(page.locator('[aria-expanded=false]')).waitFor({ timeout: 10_000 });
    };

    await jumpTo(first);
    expect(await agentState(page, first.call)).toEqual({ call: 'true', subagent: 'true' });
    await close(first, 'tool-head');
    expect((await agentState(page, first.call)).call).toBe('false');
    await jumpTo(second);
    expect(await agentState(page, second.call)).toEqual({ call: 'true', subagent: 'true' });
    // the first error's Agent call is not on this jump's way: it stays as the reader left it
    expect((await agentState(page, first.call)).call).toBe('false');
    // a jump back to the first error goes through it again: open, its subagent timeline too
    await jumpTo(first);
    expect(await agentState(page, first.call)).toEqual({ call: 'true', subagent: 'true' });

    // the same for an Agent call's subagent timeline closed (the call's block left open)
    await close(first, 'subagent-toggle');
    await jumpTo(second);
    expect(await agentState(page, first.call)).toEqual({ call: 'true', subagent: 'false' });
    await jumpTo(first);
    expect(await agentState(page, first.call)).toEqual({ call: 'true', subagent: 'true' });
    await context.close();
  });
  it('keeps a block as the reader left it when its row is scrolled away and back', async () => {
    const { context, page } = await newPage(ui.browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(new URL(`#/s/${long}`, ui.served.server.url).toString());
    const head = (i: number) => page.locator(`[id="call-toolu_long_${i}"] [data-testid=tool-head]`);
    await head(0).waitFor({ timeout: 20_000 });
    // a Bash block starts open: the reader closes the first; a thinking block starts closed: the reader opens it
    expect(await head(0).getAttribute('aria-expanded')).toBe('true');
    await head(0).click();
    expect(await head(0).getAttribute('aria-expanded')).toBe('false');
    const thought = page.locator('[data-testid=thinking]').first();
    expect(await thought.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(false);
    await thought.locator('summary').click();
    expect(await thought.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(true);
    // to the end (the first rows unmounted) and back
    await page.locator('[data-testid=session-nav]').waitFor();
    await page.keyboard.press('G');
    await head(79).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.getElementById('call-toolu_long_0'));
    await page.keyboard.press('g');
    await head(0).waitFor({ timeout: 20_000 });
    expect(await head(0).getAttribute('aria-expanded')).toBe('false');
    expect(await head(1).getAttribute('aria-expanded')).toBe('true');
    expect(await thought.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(true);
    // "Expand all" while its row is away: back, it is open (what came since applies)
    await page.keyboard.press('G');
    await head(79).waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.getElementById('call-toolu_long_0'));
    await page.getByRole('button', { name: 'Expand all' }).click();
    await page.keyboard.press('g');
    await head(0).waitFor({ timeout: 20_000 });
    expect(await head(0).getAttribute('aria-expanded')).toBe('true');
    await context.close();
  });
});
