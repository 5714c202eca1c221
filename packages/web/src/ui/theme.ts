import { useCallback, useEffect, useState } from 'react';

/** `system` follows `prefers-color-scheme`; the choice is kept in localStorage. */
const themeChoices = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof themeChoices)[number];

const THEME_KEY = 'agentdash.theme';

export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return themeChoices.find((c) => c === v) ?? 'system';
  } catch {
    return 'system';
  }
}

/** Sets `data-theme` on <html> for an explicit choice (CSS follows the media query without one). */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

/** The theme in effect: the choice, or the system's. */
function effectiveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export function useTheme(): { choice: ThemeChoice; effective: 'light' | 'dark'; cycle: () => void } {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  const [, setSystemTick] = useState(0);
  useEffect(() => {
    applyTheme(choice);
    try {
      if (choice === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
    window.dispatchEvent(new Event('agentdash-theme'));
  }, [choice]);
  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: light)');
    const on = () => {
      setSystemTick((t) => t + 1);
      window.dispatchEvent(new Event('agentdash-theme'));
    };
    media?.addEventListener('change', on);
    return () => media?.removeEventListener('change', on);
  }, []);
  // system → the opposite of what the system shows → the system's own → system
  const cycle = useCallback(() => {
    setChoice((c) => {
      const sys = effectiveTheme('system');
      if (c === 'system') return sys === 'dark' ? 'light' : 'dark';
      return c === sys ? 'system' : sys;
    });
  }, []);
  return { choice, effective: effectiveTheme(choice), cycle };
}

let probe: HTMLElement | undefined;

/**
 * A theme colour now, as the browser computes it (`rgb(…)`), for charts and canvases that can use neither `var()` nor
 * the `light-dark()` the theme's colours are written in: a hidden probe element is coloured with the property and its
 * computed colour read. Re-read on theme changes (`useThemeVersion`).
 */
export function cssColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  if (probe === undefined || !probe.isConnected) {
    probe = document.createElement('span');
    probe.hidden = true;
    // its colour read back at once, never a transition's first frame
    probe.style.setProperty('transition', 'none', 'important');
    document.body.appendChild(probe);
  }
  probe.style.color = `var(${name}, ${fallback})`;
  return getComputedStyle(probe).color || fallback;
}

/** Re-renders the caller when the theme changes (for colours read with `cssColor`). */
export function useThemeVersion(): number {
  const [v, setV] = useState(0);
  useEffect(() => {
    const on = () => setV((x) => x + 1);
    window.addEventListener('agentdash-theme', on);
    return () => window.removeEventListener('agentdash-theme', on);
  }, []);
  return v;
}
