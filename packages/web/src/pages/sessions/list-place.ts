/**
 * Where the sessions list was left: Back from a session showed the same rows (`lastShown` in use-session-list) but at
 * the top of the page, with no row focused, a long scroll and a "Show more" or two away from the row opened. The
 * page's scroll and the row opened are kept when the list goes, and given back when the same list (the same filters,
 * order and scope) comes back with its rows shown again.
 */
import { type RefObject, useLayoutEffect, useRef } from 'react';

let left: { readonly key: string; readonly top: number; readonly session: string | undefined } | undefined;

/** The page's scrolling element (the app's `main`). */
const scroller = (): HTMLElement | null => document.getElementById('main');

/**
 * Keeps the list's place as it goes and gives it back when it returns. Returns a ref for the element whose rows are
 * opened (a click in it names the row's session).
 */
export function useListPlace(key: string, restored: boolean): RefObject<HTMLDivElement | null> {
  const wrap = useRef<HTMLDivElement | null>(null);
  const opened = useRef<string | undefined>(undefined);
  const keyNow = useRef(key);
  keyNow.current = key;
  // the list's place given back once, at mount, when its rows are those last shown
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per list shown, at mount
  useLayoutEffect(() => {
    const main = scroller();
    const place = left;
    if (main && restored && place?.key === key) {
      main.scrollTop = place.top;
      const row =
        place.session === undefined
          ? null
          : wrap.current?.querySelector(`tr[data-session="${CSS.escape(place.session)}"] a.t`);
      (row as HTMLElement | null)?.focus({ preventScroll: true });
    }
    left = undefined;
    const element = wrap.current;
    const onClick = (e: MouseEvent) => {
      opened.current =
        (e.target as Element | null)?.closest('tr[data-session]')?.getAttribute('data-session') ?? undefined;
    };
    element?.addEventListener('click', onClick, true);
    return () => {
      element?.removeEventListener('click', onClick, true);
      // before the list's rows leave the page: its scroll is still theirs
      left = { key: keyNow.current, top: scroller()?.scrollTop ?? 0, session: opened.current };
    };
  }, []);
  return wrap;
}
