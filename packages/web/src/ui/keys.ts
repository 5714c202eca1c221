import { useEffect, useRef } from 'react';

/** Keyboard shortcuts, one list for the handlers and the `?` help. */
export const SHORTCUTS: readonly { readonly keys: readonly string[]; readonly what: string; readonly where: string }[] =
  [
    { keys: ['/', 'Ctrl K', '⌘ K'], what: 'Search', where: 'everywhere' },
    { keys: ['?'], what: 'Show these shortcuts', where: 'everywhere' },
    { keys: ['Esc'], what: 'Close a dialog, leave a search field', where: 'everywhere' },
    { keys: ['j', 'k'], what: 'Next / previous event', where: 'session' },
    { keys: ['e', 'E'], what: 'Next / previous error (subagents included)', where: 'session' },
    { keys: ['g', 'G'], what: 'Top / bottom', where: 'session' },
    { keys: ['f'], what: 'Find in this session', where: 'session' },
    { keys: ['n', 'N'], what: 'Next / previous match', where: 'session' },
  ];

/** Whether a key event was typed into a field (shortcuts other than Esc leave it alone). */
export function typingIn(event: KeyboardEvent): boolean {
  const t = event.target;
  if (!(t instanceof HTMLElement)) return false;
  return t.isContentEditable || t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT';
}

/**
 * Single-key shortcuts (no Ctrl, Alt or Meta) while the page is mounted; ignored while typing in a field.
 * `handlers` is read at key time, so it may change every render.
 */
export function useKeys(handlers: Readonly<Record<string, () => void>>): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const on = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typingIn(event)) return;
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
