/**
 * End-to-end: no page of the dashboard trips its own Content-Security-Policy. zod probed for `new Function` when its
 * first object schema was made, which the policy (no `unsafe-eval`) blocked and Chromium reported as a
 * `securitypolicyviolation` on every page: harmless, and noise that would hide a real violation. Each page is loaded
 * afresh (the probe runs once per load) with a listener put in before any script.
 */
import { cpSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from '../../cli/src/default-homes.js';
import { e2eMissing, idle, newPage, servedHome } from './harness';

const missing = e2eMissing();

describe.skipIf(missing !== undefined)('the dashboard and its Content-Security-Policy, in headless Chromium', () => {
  const ui = servedHome('agentdash-e2e-csp-', (home) => {
    cpSync(SAMPLES_HOME, home, { recursive: true });
    return [home];
  });

  it('reports no violation on any page', async () => {
    const problems: string[] = [];
    const { context, page } = await newPage(ui.browser, { problems });
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.sourceFile}`));
    });
    const seen: Record<string, string[]> = {};
    for (const [path, ready] of [
      ['#/', 'session-row'],
      ['#/s/5546c9dc', 'tool-block'],
      ['#/analytics', 'analytics'],
      ['#/usage', 'usage-page'],
    ] as const) {
      await page.goto(new URL(path, ui.served.server.url).toString());
      await page.reload();
      await page.getByTestId(ready).first().waitFor();
      await idle(page);
      seen[path] = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    }
    expect(seen).toEqual({ '#/': [], '#/s/5546c9dc': [], '#/analytics': [], '#/usage': [] });
    expect(problems).toEqual([]);
    await context.close();
  });
});
