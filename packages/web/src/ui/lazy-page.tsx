import { type ComponentType, lazy } from 'react';

/**
 * A page in its own chunk. Once its chunk is loaded (`preload`, or a first visit) it renders at once, with no
 * Suspense fallback in between, so moving between pages never shows an empty frame.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): { readonly Page: ComponentType<P>; readonly preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    pending ??= load().then((c) => {
      loaded = c;
      return c;
    });
    return pending;
  };
  const Lazy = lazy(() => preload().then((c) => ({ default: c })));
  function Page(props: P) {
    const C = loaded ?? Lazy;
    return <C {...props} />;
  }
  return { Page, preload };
}
