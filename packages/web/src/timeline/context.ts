import {
  type ComponentType,
  createContext,
  type Dispatch,
  type SetStateAction,
  useContext,
  useEffect,
  useState,
} from 'react';
import type { CopiedFromDto, MeasuredCallDto, ResultData } from '../data/types';

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
  /**
   * A subagent's own timeline, given by the page: the agent renderer shows it inside the call without importing
   * the timeline (which imports the renderers).
   */
  readonly SubagentView: ComponentType<{ readonly agentKey: string; readonly callPrompt?: string | undefined }>;
  /**
   * Calls a resume or fork copied into this transcript, by id, with the session that owns them
   * (`SessionDetail.copiedFrom`): their times are the copy's, not a run's.
   */
  readonly copied?: ReadonlyMap<string, CopiedFromDto> | undefined;
  /** Each call's duration as Claude Code's telemetry measured it; undefined when the session has no telemetry. */
  readonly measured?: Readonly<Record<string, MeasuredCallDto>> | undefined;
  /**
   * The list before a todo update whose client wrote an empty one, inferred from the thread's previous update
   * (`inferTodosBefore`), by call id: set by a subagent's timeline, which holds its whole thread.
   */
  readonly todosBefore?: ReadonlyMap<string, ResultData<'todo-write'>['newTodos']> | undefined;
}

export const TimelineCtx = createContext<TimelineContext>({
  sessionId: '',
  shells: {},
  expand: new Set(),
  focus: undefined,
  openAll: { version: 0, open: false },
  liveVersion: 0,
  SubagentView: () => null,
});

export const useTimeline = () => useContext(TimelineCtx);

/**
 * A block's open state, which "Expand all" and "Collapse all" set (`openAll`), on a block mounted after them too
 * (scrolled to): every block that opens uses it.
 */
export function useOpenAll(initial: boolean | (() => boolean)): [boolean, Dispatch<SetStateAction<boolean>>] {
  const { openAll } = useTimeline();
  const [open, setOpen] = useState(initial);
  useEffect(() => {
    if (openAll.version > 0) setOpen(openAll.open);
  }, [openAll]);
  return [open, setOpen];
}
