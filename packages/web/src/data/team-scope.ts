/**
 * A team server's person and device filter (`agentdash serve --team`): chosen once in the top bar, sent with every
 * API request (`?person=…&device=…`), so every page shows the same people. Kept for the browser tab
 * (sessionStorage): a reload keeps it, another tab starts unfiltered. A local server never shows the filter.
 */
export interface TeamScope {
  readonly person?: string;
  readonly device?: string;
}

const KEY = 'agentdash.teamScope';
let scope: TeamScope = read();
const listeners = new Set<(scope: TeamScope) => void>();

function read(): TeamScope {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as TeamScope) : {};
    return {
      ...(typeof parsed.person === 'string' && parsed.person ? { person: parsed.person } : {}),
      ...(typeof parsed.device === 'string' && parsed.device ? { device: parsed.device } : {}),
    };
  } catch {
    return {};
  }
}

/** The filter every request carries now. */
export function teamScope(): TeamScope {
  return scope;
}

export function setTeamScope(next: TeamScope): void {
  scope = {
    ...(next.person ? { person: next.person } : {}),
    ...(next.person && next.device ? { device: next.device } : {}),
  };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(scope));
  } catch {
    // storage refused (private mode): the filter lasts as long as the page
  }
  for (const l of listeners) l(scope);
}

export function subscribeTeamScope(listener: (scope: TeamScope) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
