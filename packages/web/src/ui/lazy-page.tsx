import { type ComponentType, lazy } from 'react';

/** How to draw again, with a new fetch, each page whose chunk could not be fetched (`retryFailedPages`). */
const failedPages = new Set<() => void>();

/**
 * Fetch again, when next drawn, the pages whose chunk could not be fetched (the server was restarting): what Retry
 * and a move to another page do, so that no browser reload is needed once the server is back, in a browser that
 * fetches a failed module again (Chromium; a browser that keeps the failure shows the error again, with Reload
 * beside Retry). Not done as the fetch fails: React draws the failed page again at once to show its error, which
 * would then fetch without end.
 */
export function retryFailedPages(): void {
  for (const retry of failedPages) retry();
  failedPages.clear();
}

/**
 * A page in its own chunk. Once its chunk is loaded (`preload`, or a first visit) it renders at once, with no
 * Suspense fallback in between, so moving between pages never shows an empty frame. A failed fetch is not kept
 * for the next preload, nor, after `retryFailedPages`, for the next visit.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): { readonly Page: ComponentType<P>; readonly preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  // React keeps a lazy component's failure for good: a retry needs a new one.
  const lazyOfPreload = () => lazy(() => preload().then((c) => ({ default: c })));
  const retry = () => {
    Lazy = lazyOfPreload();
  };
  const preload = () => {
    pending ??= load().then(
      (c) => {
        loaded = c;
        return c;
      },
      (error: unknown) => {
        pending = undefined;
        failedPages.add(retry);
        throw error;
      },
    );
    return pending;
  };
  let Lazy = lazyOfPreload();
  function Page(props: P) {
    const C = loaded ?? Lazy;
    return <C {...props} />;
  }
  return { Page, preload };
}
