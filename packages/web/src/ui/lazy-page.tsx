import { type ComponentType, lazy } from 'react';

/**
 * A page in its own chunk. Once its chunk is loaded (`preload`, or a first visit) it renders at once, with no
 * Suspense fallback in between, so moving between pages never shows an empty frame. A failed fetch (the server
 * restarting) is not kept: the next preload, Retry or visit fetches the chunk again, without a browser reload.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): { readonly Page: ComponentType<P>; readonly preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  // React keeps a lazy component's failure for good: a failed fetch gets a new one, which fetches again when drawn.
  const lazyOfPreload = () => lazy(() => preload().then((c) => ({ default: c })));
  let Lazy: ComponentType<P>;
  const preload = () => {
    pending ??= load().then(
      (c) => {
        loaded = c;
        return c;
      },
      (error: unknown) => {
        pending = undefined;
        Lazy = lazyOfPreload();
        throw error;
      },
    );
    return pending;
  };
  Lazy = lazyOfPreload();
  function Page(props: P) {
    const C = loaded ?? Lazy;
    return <C {...props} />;
  }
  return { Page, preload };
}
