import { plainText } from '@agentdash/core/present';
import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Jump } from '../../timeline/context';
import { focusMovedTo } from '../../ui/keys';
import { wholeTextOf } from '../../ui/LongText';
import { highlightCurrent, matchRanges } from './find-highlight';

/** Looks (150 ms apart) a jump waits for the rest of a long text to be drawn: 6 s for a call's output to come. */
const MAX_DRAWS = 40;

/** A place in the session: the main-timeline event, the Agent calls to open on the way, and the call itself. */
export interface JumpTarget {
  readonly index: number;
  readonly expand: readonly string[];
  readonly callId: string | null;
  /** Text to scroll to (and mark as the current match) inside the target. */
  readonly text?: string | undefined;
}

/**
 * Where the jumps went: the calls on the way of every jump so far (the rows the virtual list mounts again open
 * them), the newest jump's call, and the newest jump itself (its own way, opened again at each jump).
 */
export interface Located {
  readonly expand: ReadonlySet<string>;
  readonly focus: string | undefined;
  readonly jump: Jump;
}

/**
 * Jumping to a place: open what leads to it, scroll its row into view, wait for rows (and subagent timelines) to
 * render and measure, then centre the call (or the matching text) itself.
 */
export function useJump(
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  scrollRef: RefObject<HTMLDivElement | null>,
  rowOf: (index: number) => number,
) {
  const [located, setLocated] = useState<Located>({
    expand: new Set(),
    focus: undefined,
    jump: { seq: 0, path: new Set() },
  });
  const [target, setTarget] = useState<{ readonly t: JumpTarget; readonly seq: number } | undefined>();
  const seq = useRef(0);

  const jump = useCallback((t: JumpTarget) => {
    setLocated((l) => ({
      expand: new Set([...l.expand, ...t.expand]),
      focus: t.callId ?? undefined,
      jump: { seq: l.jump.seq + 1, path: new Set(t.expand) },
    }));
    setTarget({ t, seq: ++seq.current });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one run per jump
  useEffect(() => {
    if (!target) return;
    const { t } = target;
    let cancelled = false;
    let tries = 0;
    let settled = 0;
    let drawn = 0;
    // each button is pressed once: one whose answer failed is enabled again, and is left to the person
    const pressed = new WeakSet<Element>();
    const row = Math.max(0, rowOf(t.index));
    const step = () => {
      if (cancelled || target.seq !== seq.current) return;
      const scroller = scrollRef.current;
      const rowEl = scroller?.querySelector<HTMLElement>(`[data-index="${row}"]`);
      const callEl = t.callId ? document.getElementById(`call-${t.callId}`) : null;
      const el = t.callId ? callEl : rowEl;
      if (el && scroller) {
        const match = t.text ? matchRanges(el, t.text)[0] : undefined;
        // a match in the part of a long text not drawn yet (LongText), or of a call's output past the timeline's cut
        // (its "Show more", 400,000 characters; never its "Show all", which may freeze the page): drawn, then looked
        // for again, once the call's answer is in (its button disabled meanwhile)
        const more = t.text && !match ? moreToDraw(el, t.text, pressed) : undefined;
        if (more && ++drawn <= MAX_DRAWS) {
          if (!more.disabled) {
            pressed.add(more);
            more.click();
          }
          setTimeout(step, 150);
          return;
        }
        highlightCurrent(match);
        if (match) revealWithin(match, scroller);
        const box = (match ?? el).getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        const big = box.height > view.height * 0.8;
        const offset = big ? box.top - view.top - 24 : box.top - view.top - (view.height - box.height) / 2;
        scroller.scrollTop += offset;
        if (++settled < 4) setTimeout(step, 150);
        else focusMovedTo(el, scroller);
        return;
      }
      virtualizer.scrollToIndex(row, { align: 'start' });
      // the row's page may still be on its way (a slow or busy server): keep trying for half a minute
      if (++tries < 250) setTimeout(step, 120);
    };
    step();
    return () => {
      cancelled = true;
    };
  }, [target]);

  /** No call marked (a link to a call the session does not hold): the last jump's mark is let go. */
  const unfocus = useCallback(() => setLocated((l) => (l.focus === undefined ? l : { ...l, focus: undefined })), []);

  return { located, jump, unfocus };
}

/**
 * The button that draws more of `el` where `query` may be: the "Show all" of the long text whose whole text holds it
 * (as find-in-session matches: its plain text, any case), else a call's "Show more" not pressed yet, or one waiting for
 * its answer; none when neither is there.
 */
function moreToDraw(el: Element, query: string, pressed: WeakSet<Element>): HTMLButtonElement | undefined {
  const needle = query.toLowerCase();
  for (const note of el.querySelectorAll('[data-testid=long-text-note]')) {
    const whole = wholeTextOf(note);
    if (whole === undefined || !plainText(whole).toLowerCase().includes(needle)) continue;
    const button = note.querySelector<HTMLButtonElement>('[data-testid=long-text-more]');
    if (button) return button;
  }
  for (const button of el.querySelectorAll<HTMLButtonElement>('[data-testid=show-more][data-step=more]')) {
    if (!pressed.has(button) || button.disabled) return button;
  }
  return undefined;
}

/**
 * Scrolls each box between a match and `outer` that scrolls by itself (a long output's code block, a wide line) to
 * centre the match in it: else the match lies clipped inside its box, and centring it in `outer` scrolls its call
 * out of view.
 */
function revealWithin(range: Range, outer: Element): void {
  for (let box = range.startContainer.parentElement; box && box !== outer; box = box.parentElement) {
    const tall = box.scrollHeight > box.clientHeight;
    const wide = box.scrollWidth > box.clientWidth;
    if (!tall && !wide) continue;
    const at = range.getBoundingClientRect();
    const rect = box.getBoundingClientRect();
    if (tall) box.scrollTop += at.top - rect.top - (box.clientHeight - at.height) / 2;
    if (wide) box.scrollLeft += at.left - rect.left - (box.clientWidth - at.width) / 2;
  }
}
