/**
 * End-to-end: the sessions list at the window widths between a phone's and a wide desktop's (a laptop's, a window
 * beside an editor), over sessions shaped as the wild homes' widest rows: a long project path, a start in another
 * year, a day-long wall time, a cost that is a lower bound, an excerpt of a search holding a long word. At 1,024 and
 * 1,100 px the table was pushed 77–153 px past its frame (Errors and Cost out of view), and a long word in an excerpt
 * widened the Session column past the frame at every width. Now every figure column is in view at each width (cards
 * up to 1,000 px, Messages left out up to 1,180 px).
 */
import { join } from 'node:path';
import { assistantText, prompt, type RecordBase, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eMissing, idle, newPage, servedHome } from './harness';
import { revisit } from './samples-ui';
import { shot } from './shots';

const missing = e2eMissing();

/** A Windows path of a real transcript's output: no space, hyphen nor slash where a line may break. */
const LONG_WORD =
  'C:\\work\\tests\\snapshots\\should_deny_permission_when_the_handler_returns_denied_for_each_request.yaml';
const CWD = '/Users/someone/Projects/entire-graph-semantic-search/packages/semantic-search-ranking';

/** A session of `calls` Bash calls (every fifth failing) over 18 hours of 2025, on a priced and an unpriced model. */
function wideSession(home: string, id: string, calls: number, title: string): void {
  const start = Date.UTC(2025, 11, 12, 21, 25);
  const at = (uuid: string, parent: string | null, minute: number): RecordBase => ({
    sessionId: id,
    uuid,
    parentUuid: parent,
    timestamp: new Date(start + minute * 60_000).toISOString(),
    cwd: CWD,
  });
  const lines = [prompt(at('u0', null, 0), title)];
  let parent = 'u0';
  for (let i = 0; i < calls; i++) {
    const minute = Math.round((i * 18 * 60) / calls);
    const use = toolUse(at(`t${i}`, parent, minute), `msg_${i}`, `toolu_${i}`, 'Bash', { command: `make test-${i}` });
    // the later half on a model without a price: the cost is a lower bound ("+ ?")
    lines.push(i < calls / 2 ? use : use.replace('"claude-opus-5-5"', '"claude-sonnet-4-5-20250929"'));
    lines.push(toolResult(at(`r${i}`, `t${i}`, minute), `toolu_${i}`, `ran test ${i}`, i % 5 === 0));
    parent = `r${i}`;
  }
  lines.push(assistantText(at('a-end', parent, 18 * 60), 'msg_end', `Done. The failing snapshot was ${LONG_WORD}`));
  writeLines(join(home, 'projects', '-Users-someone-Projects-entire-graph', `${id}.jsonl`), lines);
}

const WIDTHS = [1001, 1024, 1100, 1180, 1181, 1280, 1440] as const;

describe.skipIf(missing !== undefined)(
  'the sessions list between a phone and a wide window, in headless Chromium',
  () => {
    const ui = servedHome('agentdash-e2e-list-widths-', (home) => {
      wideSession(
        home,
        '0c97beba-0000-4000-8000-0000000000f2',
        240,
        'Review https://github.com/example/entire-graph/pull/1024 and fix what fails',
      );
      wideSession(home, '0c97beba-0000-4000-8000-0000000000f3', 60, 'Investigate graph search ranking');
      return undefined;
    });

    it('keeps every figure column in view at each width, with a search and without', async () => {
      const { context, page } = await newPage(ui.browser);
      const found: string[] = [];
      for (const hash of ['#/', '#/?q=snapshots']) {
        for (const width of [1000, ...WIDTHS]) {
          await page.setViewportSize({ width, height: 900 });
          await revisit(page, new URL(hash, ui.served.server.url).toString());
          await page.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
          // a search's rows may be drawn before its excerpts (the list's rows stay until the search answers)
          if (hash !== '#/') {
            const errors: string[] = [];
            const failed = (r: Request) => errors.push(`${r.url()}: ${r.failure()?.errorText}`);
            page.on('requestfailed', failed);
            await page
              .getByTestId('search-snippet')
              .first()
              .waitFor({ timeout: 15_000 })
              .catch(async (e: unknown) => {
                // what the page said instead, for whoever reads the failure
                const said = await page.locator('.err-msg').allTextContents();
                throw new Error(`${String(e)}\nthe page said: ${said.join(' | ')}\nfailed: ${errors.join(' | ')}`);
              });
            page.off('requestfailed', failed);
          }
          await idle(page);
          const fit = await page.evaluate(() => {
            const wrap = document.querySelector<HTMLElement>('[data-testid=sessions-wrap]');
            const box = wrap?.getBoundingClientRect();
            const heads = [...document.querySelectorAll<HTMLElement>('[data-testid=sessions-table] th')];
            const shown = heads.filter((h) => h.getBoundingClientRect().width > 0);
            return {
              over: wrap ? wrap.scrollWidth - wrap.clientWidth : -1,
              shown: shown.map((h) => h.textContent?.replace(/[↑↓]/, '') ?? ''),
              out: shown
                .filter((h) => box && h.getBoundingClientRect().right > box.right + 1)
                .map((h) => h.textContent),
              snippet: document.querySelector('.snippet')?.textContent ?? '',
            };
          });
          const at = `${width} px ${hash}`;
          if (fit.over > 1) found.push(`${at}: the table is ${fit.over} px wider than its frame`);
          if (fit.out.length > 0) found.push(`${at}: ${fit.out.join(', ')} out of view`);
          // cards up to 1,000 px (no header row), Messages left out up to 1,180 px, every column from there
          const want =
            width <= 1000
              ? []
              : width <= 1180
                ? ['Session', 'Project', 'Started', 'Time', 'Tool calls', 'Errors', 'Cost']
                : ['Session', 'Project', 'Started', 'Time', 'Messages', 'Tool calls', 'Errors', 'Cost'];
          expect(fit.shown, at).toEqual(want);
          if (hash !== '#/') expect(fit.snippet, at).toContain('should_deny_permission_when_the_handler');
          await shot(page, `ui-list-width-${width}${hash === '#/' ? '' : '-search'}`);
        }
      }
      expect(found).toEqual([]);
      // a project is cut at its start, where its own name is
      const project = page.locator('[data-testid=session-row] .project').first();
      expect(await project.textContent()).toBe('…/packages/semantic-search-ranking');
      expect(await project.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
      await context.close();
    });
  },
);
