/**
 * Screenshots of the Chromium suites, for a person to look at: taken only when `AGENTDASH_SHOTS` names a folder
 * (`AGENTDASH_SHOTS=/tmp/shots npm test`, or one suite with `npx vitest run --project e2e e2e/usage.test.ts`). No
 * test reads them, and each costs Chromium a capture and a PNG encode, a noticeable share of their group's time.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const folder = process.env.AGENTDASH_SHOTS || undefined;

/** `page` as shown now, saved as `<name>.png` in `$AGENTDASH_SHOTS`; nothing when that is not set. */
export async function shot(page: Page, name: string, options: { readonly fullPage?: boolean } = {}): Promise<void> {
  if (folder === undefined) return;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), ...options });
}
