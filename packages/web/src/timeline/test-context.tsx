import type { ReactNode } from 'react';
import { type TimelineContext, TimelineCtx } from './context';

/** A timeline's context for rendering tests: nothing expanded, jumped to or live; `over` sets what a test needs. */
export function InTimeline({ over = {}, children }: { over?: Partial<TimelineContext>; children: ReactNode }) {
  const value: TimelineContext = {
    sessionId: 's',
    shells: {},
    expand: new Set(),
    focus: undefined,
    jump: { seq: 0, path: new Set<string>() },
    openAll: { version: 0, open: false },
    liveVersion: 0,
    SubagentView: () => null,
    ...over,
  };
  return <TimelineCtx.Provider value={value}>{children}</TimelineCtx.Provider>;
}
