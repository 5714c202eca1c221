import { type ReactNode, Suspense } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { lazyPage, retryFailedPages } from './lazy-page';

/** The page's HTML once every Suspense boundary settled (a failed chunk leaves the boundary's fallback). */
async function prerendered(node: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node, { onError: () => undefined });
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

describe('a page in its own chunk', () => {
  it('is fetched again after a failed fetch (the server restarted), not only after a browser reload', async () => {
    let calls = 0;
    const page = lazyPage(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return () => <p>the page</p>;
    });
    const view = (
      <Suspense fallback={<i>loading</i>}>
        <page.Page />
      </Suspense>
    );
    expect(await prerendered(view)).not.toMatch('the page');
    // drawn again to show its error: no new fetch (React draws a failed page again at once)
    expect(await prerendered(view)).not.toMatch('the page');
    expect(calls).toBe(1);
    // what Retry or another visit does
    retryFailedPages();
    expect(await prerendered(view)).toMatch('<p>the page</p>');
    expect(calls).toBe(2);
  });

  it('a failed preload does not keep the failure for the next one', async () => {
    let calls = 0;
    const page = lazyPage(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return () => null;
    });
    await expect(page.preload()).rejects.toThrow('dynamically imported');
    await expect(page.preload()).resolves.toBeTypeOf('function');
  });
});
