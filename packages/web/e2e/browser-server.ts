/**
 * Vitest global setup of the Chromium project: one headless Chromium per worker of the project for the whole run, which
 * the suites of that worker connect to (`connectChromium` in ./harness.ts) and open their own contexts in, instead of
 * each file starting and stopping its own browser. A context shares nothing with another (cookies, storage,
 * permissions); a browser's clipboard is its own, so two files at once never share one browser. Where Chromium is
 * missing nothing is started and the suites say they are skipped.
 */
import { existsSync } from 'node:fs';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, commandLineOf, missingDisabledFeatures } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket endpoints of the run's Chromiums, one per worker (none without Chromium). */
    chromiumEndpoints: readonly string[];
  }
}

export default async function browserServers(project: TestProject): Promise<() => Promise<void>> {
  const count = existsSync(CHROMIUM) ? Math.max(1, project.config.maxWorkers ?? 1) : 0;
  const servers: BrowserServer[] = await Promise.all(
    Array.from({ length: count }, () =>
      chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] }),
    ),
  );
  const lost = servers.flatMap((server) => missingDisabledFeatures(commandLineOf(server.process().pid ?? 0)));
  if (lost.length > 0) {
    await Promise.all(servers.map((server) => server.close()));
    throw new Error(
      `CHROMIUM_ARGS (e2e/chromium.ts) turns back on features Playwright disables: ${[...new Set(lost)].join(', ')}; add them to its list`,
    );
  }
  project.provide(
    'chromiumEndpoints',
    servers.map((server) => server.wsEndpoint()),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.close()));
  };
}
