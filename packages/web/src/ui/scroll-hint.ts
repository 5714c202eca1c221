import { type RefObject, useEffect } from 'react';

/**
 * Marks a row that scrolls sideways (a phone's session header: its actions) with `data-more` while
 * part of it is out of view to the right, so that its edge fades there (styles.css) and says there is more; a
 * row that fits, or is scrolled to its end, is not marked.
 */
export function useScrollHint(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const mark = () => {
      const more = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      if (more) el.dataset.more = '';
      else delete el.dataset.more;
    };
    mark();
    el.addEventListener('scroll', mark, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(mark);
    resized?.observe(el);
    // its content changes size too (figures filled in, a live session's counts)
    const changed = typeof MutationObserver === 'undefined' ? undefined : new MutationObserver(mark);
    changed?.observe(el, { childList: true, subtree: true, characterData: true });
    return () => {
      el.removeEventListener('scroll', mark);
      resized?.disconnect();
      changed?.disconnect();
    };
  }, [ref]);
}
