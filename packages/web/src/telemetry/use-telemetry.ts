/**
 * Claude Code's own telemetry in the dashboard: hooks that load it and follow it live (a stored export tells the
 * list with `sessions-changed` and each session it names with `session-updated`).
 */
import { useState } from 'react';
import { ApiRequestError, api } from '../data/client';
import type {
  SessionTelemetryDto,
  TelemetrySetupResponse,
  TelemetryStepsResponse,
  TelemetrySummaryDto,
} from '../data/types';
import { useLiveAnswer } from '../data/use-live-answer';
import { LIST_RELOAD_MS, useLiveTick, useSessionTick } from '../data/use-live-tick';

/**
 * What a request gave: the answer, `null` when there is none (404: no telemetry), undefined while loading. `scope`
 * names what is asked (a session id) and `tick` when to ask again: a new tick keeps the answer shown until the next
 * comes, a new scope never shows the previous scope's answer.
 */
function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, scope: string, tick = 0): T | null | undefined {
  const [held, setHeld] = useState<{ readonly scope: string; readonly value: T | null } | undefined>();
  useLiveAnswer(scope, tick, {
    ask: load,
    take: (value) => setHeld({ scope, value }),
    fail: (e) => {
      // another failure keeps what was shown for this scope (a reload during a restart)
      if (e instanceof ApiRequestError && e.status === 404) setHeld({ scope, value: null });
      else setHeld((h) => (h?.scope === scope ? h : { scope, value: null }));
    },
  });
  return held?.scope === scope ? held.value : undefined;
}

/** One session's measured figures (null: no telemetry for it), following live updates. */
export function useSessionTelemetry(id: string): SessionTelemetryDto | null | undefined {
  const tick = useSessionTick(id, 0);
  return useLoaded((signal) => api.telemetry.session(id, signal), id, tick);
}

/** One session's calls from telemetry, following live updates (its calls fill in as `tool_result` events arrive). */
export function useTelemetrySteps(id: string): TelemetryStepsResponse | null | undefined {
  const tick = useSessionTick(id, 0);
  return useLoaded((signal) => api.telemetry.steps(id, signal), id, tick);
}

/** Sessions known only from telemetry, reloaded as the list is. */
export function useTelemetryOnly(): readonly TelemetrySummaryDto[] {
  const tick = useLiveTick(LIST_RELOAD_MS);
  return useLoaded((signal) => api.telemetry.only(signal).then((r) => r.sessions), '', tick) ?? [];
}

/** Every session id telemetry names (the list marks them "measured"). */
export function useTelemetryIds(): ReadonlySet<string> {
  const tick = useLiveTick(LIST_RELOAD_MS);
  const ids = useLoaded((signal) => api.telemetry.ids(signal).then((r) => new Set(r.sessionIds)), '', tick);
  return ids ?? EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();

/** Where `serve` receives telemetry and the `env` lines for `~/.claude/settings.json`. */
export function useTelemetrySetup(): TelemetrySetupResponse | null | undefined {
  return useLoaded((signal) => api.telemetry.setup(signal), '');
}
