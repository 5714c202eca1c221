import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { focusMovedTo, useKeys } from '../../ui/keys';
import { type Step, stepTo, useRows } from './rows';
import { useJump } from './use-jump';
import { useSessionErrors } from './use-session-errors';
import type { SessionView } from './use-session-view';

/**
 * Moving through a session's timeline: its rows (every event, or the events holding an error) in a virtual list that
 * loads the pages it shows, a cursor (j/k, g/G), and the errors, subagents' included (e/E).
 */
export function useSessionNav(view: SessionView, scrollRef: RefObject<HTMLDivElement | null>) {
  // errored calls and the requests to the model that failed (an API error that ended its turn)
  const detail = view.detail;
  const errorCount = view.held
    ? (detail?.session.errors ?? 0) + (detail?.counts.failedRequests ?? detail?.session.apiErrors ?? 0)
    : 0;
  const { errors, listing } = useSessionErrors(view.detail?.session.id, errorCount, view.liveVersion);
  const [errorPos, setErrorPos] = useState(-1);
  const [errorsOnly, setErrorsOnly] = useState(false);
  const { filtered, count, rowIndex, rowOf } = useRows(errors, errorsOnly, view.total);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const { loadFor } = view;
  useEffect(() => {
    for (const v of items) loadFor(rowIndex(v.index));
  }, [items, loadFor, rowIndex]);

  const { located: jumped, jump, unfocus } = useJump(virtualizer, scrollRef, rowOf);
  // Errors only: the Agent calls holding an error open too, so that each error shows where it happened (an event of
  // five parallel Agent calls showed their prompts and reports, its failing calls shut inside). They join `expand`,
  // and a block opens when its id joins (`useKeptOpen`): when the mode turns on, or a new error's calls when it
  // comes, never again a call the reader closed at a later jump or live update. Keyed by the calls' ids, not by the
  // list: a live session's errors come again at every update, the same set.
  const errorPaths = [...new Set(errors.flatMap((e) => e.expand))].sort().join('\n');
  const located = useMemo(
    () =>
      filtered && errorPaths !== ''
        ? { ...jumped, expand: new Set([...jumped.expand, ...errorPaths.split('\n')]) }
        : jumped,
    [filtered, jumped, errorPaths],
  );
  const [cursor, setCursor] = useState(-1);

  const goError = (step: Step) => {
    if (errors.length === 0) return;
    const next = stepTo(errorPos, step, errors.length);
    const hit = errors[next];
    if (!hit) return;
    setErrorPos(next);
    setCursor(rowOf(hit.index));
    jump({ index: hit.index, expand: hit.expand, callId: hit.callId });
  };
  const moveSeq = useRef(0);
  // The reader's own scrolling (wheel, touch, the scroll bar) ends a move's settling.
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const stop = () => void moveSeq.current++;
    const kinds = ['wheel', 'touchstart', 'mousedown'] as const;
    for (const kind of kinds) scroller.addEventListener(kind, stop, { passive: true });
    return () => {
      for (const kind of kinds) scroller.removeEventListener(kind, stop);
    };
  });
  const moveCursor = (to: number) => {
    if (count === 0) return;
    const next = Math.max(0, Math.min(count - 1, to));
    setCursor(next);
    const align = next === count - 1 && to > next ? 'end' : 'start';
    virtualizer.scrollToIndex(next, { align });
    // The rows around the target come (their page loads) and measure taller than estimated, which moves the target
    // out of view again (G stopped 4 rows short of a 3 MB session's end): scroll again until it is shown, loaded and
    // stays put, for up to half a minute (a busy server); a later move cancels this one.
    const seq = ++moveSeq.current;
    let tries = 0;
    let settled = 0;
    let focused = false;
    const step = () => {
      if (seq !== moveSeq.current) return;
      const scroller = scrollRef.current;
      const row = scroller?.querySelector<HTMLElement>(`[data-index="${next}"]`);
      const loaded = row?.querySelector('[data-testid]') != null;
      if (row && loaded && !focused) {
        focused = true;
        focusMovedTo(row, scroller ?? null);
      }
      if (scroller && row && loaded && inPlace(scroller, row, align)) {
        if (++settled >= 3) return;
      } else {
        settled = 0;
        virtualizer.scrollToIndex(next, { align });
      }
      if (++tries < 250) setTimeout(step, 120);
    };
    setTimeout(step, 120);
  };
  const visibleCursor = () => {
    const shown = virtualizer.getVirtualItems();
    const first = shown.find((v) => v.end > (scrollRef.current?.scrollTop ?? 0));
    return shown.some((v) => v.index === cursor) ? cursor : (first?.index ?? 0) - 1;
  };
  useKeys({
    j: () => moveCursor(visibleCursor() + 1),
    k: () => moveCursor(visibleCursor() - 1),
    e: () => goError(1),
    E: () => goError(-1),
    g: () => moveCursor(0),
    Home: () => moveCursor(0),
    G: () => moveCursor(count),
    End: () => moveCursor(count),
  });

  return {
    virtualizer,
    rowIndex,
    rowOf,
    filtered,
    setErrorsOnly,
    located,
    jump,
    unfocus,
    cursor,
    setCursor,
    /** The error half of the nav bar. */
    errorBar: {
      errors,
      headerErrors:
        listing === 'listed'
          ? undefined
          : { count: errorCount, expected: view.detail?.session.expectedErrors ?? 0, state: listing },
      // Errors the header counts that no place of the timeline holds: those of subagents no call started, listed
      // under the header (UnlinkedSubagents).
      elsewhere: listing === 'listed' ? Math.max(0, errorCount - errors.length) : 0,
      errorPos,
      onError: goError,
      errorsOnly: filtered,
      onErrorsOnly: (on: boolean) => {
        setErrorsOnly(on);
        setCursor(-1);
        virtualizer.scrollToIndex(0);
      },
    },
  };
}

export type SessionNav = ReturnType<typeof useSessionNav>;

/** Whether the row is where a move put it: its top at the view's top, or (the last row) the view at its end. */
function inPlace(scroller: HTMLElement, row: HTMLElement, align: 'start' | 'end'): boolean {
  const view = scroller.getBoundingClientRect();
  const box = row.getBoundingClientRect();
  if (align === 'end') return scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
  return Math.abs(box.top - view.top) <= 2 || scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
}
