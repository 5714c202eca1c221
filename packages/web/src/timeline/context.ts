import { createContext, useContext } from 'react';

export interface TimelineContext {
  readonly sessionId: string;
  /** Background shell / task id → the call that started it. */
  readonly shells: Readonly<Record<string, string>>;
  /** Calls to open (deep link to a call inside subagents). */
  readonly expand: ReadonlySet<string>;
  /** The call a deep link points at. */
  readonly focus: string | undefined;
  /** Expand-all / collapse-all: a change of `version` resets every block to `open`. */
  readonly openAll: { readonly version: number; readonly open: boolean };
  /** Bumped on live updates so nested subagent timelines reload. */
  readonly liveVersion: number;
}

export const TimelineCtx = createContext<TimelineContext>({
  sessionId: '',
  shells: {},
  expand: new Set(),
  focus: undefined,
  openAll: { version: 0, open: false },
  liveVersion: 0,
});

export const useTimeline = () => useContext(TimelineCtx);
