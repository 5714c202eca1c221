/**
 * Find-in-session highlighting with the CSS Custom Highlight API: matches are ranges over the rendered text, so
 * renderers stay untouched and no log text is ever turned into markup.
 */
import { type RefObject, useEffect } from 'react';

const MATCH = 'find-match';
const CURRENT = 'find-current';
const MAX_RANGES = 5000;

type Registry = { set(name: string, h: unknown): void; delete(name: string): void };
const registry = (): Registry | undefined =>
  typeof CSS !== 'undefined' && 'highlights' in CSS ? (CSS.highlights as unknown as Registry) : undefined;
const HighlightCtor = (): (new (...ranges: Range[]) => unknown) | undefined =>
  typeof Highlight === 'undefined' ? undefined : Highlight;

/** Ranges of `query` (case-insensitive) in the text under `root`. */
export function matchRanges(root: Node, query: string): Range[] {
  const needle = query.toLowerCase();
  const ranges: Range[] = [];
  if (needle === '') return ranges;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && ranges.length < MAX_RANGES; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(needle); at >= 0 && ranges.length < MAX_RANGES; at = text.indexOf(needle, at + 1)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
    }
  }
  return ranges;
}

function highlightMatches(ranges: readonly Range[]): void {
  const reg = registry();
  const H = HighlightCtor();
  if (!reg || !H) return;
  if (ranges.length === 0) reg.delete(MATCH);
  else reg.set(MATCH, new H(...ranges));
}

export function highlightCurrent(range: Range | undefined): void {
  const reg = registry();
  const H = HighlightCtor();
  if (!reg || !H) return;
  if (range) reg.set(CURRENT, new H(range));
  else reg.delete(CURRENT);
}

function clearHighlights(): void {
  registry()?.delete(MATCH);
  registry()?.delete(CURRENT);
}

/** Keeps every match of `query` under `root` highlighted while the timeline renders (rows come and go). */
export function useFindHighlight(root: RefObject<HTMLElement | null>, query: string): void {
  useEffect(() => {
    const el = root.current;
    if (!el || query === '') {
      clearHighlights();
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const paint = () => highlightMatches(matchRanges(el, query));
    paint();
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(paint, 120);
    });
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      clearHighlights();
    };
  }, [root, query]);
}
