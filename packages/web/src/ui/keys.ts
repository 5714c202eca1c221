import { useEffect, useRef } from 'react';

/** Keyboard shortcuts, one list for the handlers and the `?` help. */
export const SHORTCUTS: readonly { readonly keys: readonly string[]; readonly what: string; readonly where: string }[] =
  [
    { keys: ['/', 'Ctrl K', '⌘ K'], what: 'Search', where: 'everywhere' },
    { keys: ['?'], what: 'Show these shortcuts', where: 'everywhere' },
    { keys: ['Esc'], what: 'Close a dialog, leave a search field', where: 'everywhere' },
    { keys: ['j', 'k'], what: 'Next / previous session', where: 'sessions' },
    { keys: ['Enter'], what: 'Open the session', where: 'sessions' },
    { keys: ['j', 'k'], what: 'Next / previous event', where: 'session' },
    { keys: ['e', 'E'], what: 'Next / previous error (subagents included)', where: 'session' },
    { keys: ['g', 'G'], what: 'Top / bottom', where: 'session' },
    { keys: ['f'], what: 'Find in this session', where: 'session' },
    { keys: ['n', 'N'], what: 'Next / previous match', where: 'session' },
    { keys: ['←', '→'], what: 'Previous / next call of the thread (the canvas focused)', where: 'waterfall' },
    { keys: ['↑', '↓'], what: 'The thread above / below, its call nearest in time', where: 'waterfall' },
    { keys: ['Home', 'End'], what: "The thread's first / last call", where: 'waterfall' },
    { keys: ['Enter'], what: 'Open the call in the timeline', where: 'waterfall' },
  ];

/** Whether a key event was typed into a field (shortcuts other than Esc leave it alone). */
export function typingIn(event: KeyboardEvent): boolean {
  const t = event.target;
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT';
}

const SINGLE_KEYS = 'agentdash.singleKeyShortcuts';

/**
 * Whether shortcuts of one character key (j, k, e, /, ?, …) are on: a person may turn them off (the shortcuts'
 * dialog), as speech input types letters that would trigger them (WCAG 2.1.4). Kept in this browser.
 */
export function singleKeysOn(): boolean {
  try {
    return localStorage.getItem(SINGLE_KEYS) !== 'off';
  } catch {
    return true;
  }
}

export function setSingleKeys(on: boolean): void {
  try {
    if (on) localStorage.removeItem(SINGLE_KEYS);
    else localStorage.setItem(SINGLE_KEYS, 'off');
  } catch {
    // storage refused (a private window's policy): the choice lasts until the page is left
  }
}

/** Whether a key event is a character shortcut that the person turned off (`singleKeysOn`). */
export function singleKeyOff(event: KeyboardEvent): boolean {
  return event.key.length === 1 && !event.ctrlKey && !event.metaKey && !singleKeysOn();
}

/**
 * Single-key shortcuts (no Ctrl, Alt or Meta) while the page is mounted; ignored while typing in a field, and those of
 * a character key while the person turned them off (`singleKeysOn`).
 * `handlers` is read at key time, so it may change every render.
 */
export function useKeys(handlers: Readonly<Record<string, () => void>>): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const on = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingIn(event)) return;
      if (singleKeyOff(event)) return;
      const handler = ref.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);
}

/** Event the sessions page listens to: focus its search field (`/`, Ctrl/⌘-K from any page). */
export const FOCUS_SEARCH_EVENT = 'agentdash-focus-search';

let searchWanted = false;

/**
 * Asks for the sessions page's search field. A mounted field takes it at once (it cancels the event); otherwise the
 * request waits for the field to mount, never for a timer, so a later Escape is not undone by a late focus.
 */
export function requestSearchFocus(): void {
  searchWanted = window.dispatchEvent(new Event(FOCUS_SEARCH_EVENT, { cancelable: true }));
}

/** The search field, on mount: whether a request came before it was there (and it is now taken). */
export function takeSearchRequest(): boolean {
  const wanted = searchWanted;
  searchWanted = false;
  return wanted;
}

/** The sessions list's rows, by their title links (what j/k move between and Enter opens). */
const ROW_LINKS = '[data-testid="session-row"] a.t';

/**
 * Move the keyboard focus `step` rows down (or up) the sessions list: from the focused row, or onto the first row
 * when none is focused. The row's link holds the focus, so Enter opens it as a click would.
 */
export function focusSessionRow(step: number): void {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(ROW_LINKS)];
  if (links.length === 0) return;
  const at = links.findIndex((a) => a.closest('tr')?.contains(document.activeElement) === true);
  const next = at < 0 ? (step > 0 ? 0 : links.length - 1) : Math.max(0, Math.min(links.length - 1, at + step));
  const link = links[next];
  link?.focus();
  link?.closest('tr')?.scrollIntoView({ block: 'nearest' });
}

/** What holds the focus of its own: a field, a button, a link (a move of the keyboard does not take it away). */
const CONTROLS = 'input, textarea, select, button, a[href], summary, [contenteditable]:not([contenteditable=false])';

/**
 * The focus moved to `el`, a row or call the keyboard went to (j/k, e/E, a link to a call), so that Tab goes on from
 * there and a screen reader reads it; unless the focus is on a control of its own outside `area` (the find's field,
 * the Next error button pressed again; a heading the page's change focused is none). The page does not scroll for it:
 * the move placed it already.
 */
export function focusMovedTo(el: HTMLElement, area: HTMLElement | null): void {
  const active = document.activeElement;
  const own = active?.isConnected === true && active.matches(CONTROLS) && area?.contains(active) !== true;
  if (own) return;
  if (!el.hasAttribute('tabindex')) el.tabIndex = -1;
  el.focus({ preventScroll: true });
}

/** The first thing of the page's content a keyboard user wants: the first session row, else the page itself. */
export function focusContent(): void {
  if (document.querySelector(ROW_LINKS)) {
    focusSessionRow(1);
    return;
  }
  // a page's content, or a session's (its layout holds the header, the bars and the timeline)
  const page = document.querySelector<HTMLElement>('#main .page, #main .session-layout');
  if (!page) return;
  page.tabIndex = -1;
  page.focus();
}
