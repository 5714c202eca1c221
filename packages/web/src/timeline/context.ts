import {
  type ComponentType,
  createContext,
  type Dispatch,
  type SetStateAction,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react';
import type { CopiedFromDto, MeasuredCallDto, ResultData } from '../data/types';

export interface Jump {
  readonly seq: number;
  readonly path: ReadonlySet<string>;
}

export interface TimelineContext {
  readonly sessionId: string;
  /** Background shell / task id → the call that started it. */
  readonly shells: Readonly<Record<string, string>>;
  /**
   * Calls to open: those on the way of every jump so far (to a deep-linked call, an error, a find hit inside
   * subagents), and in errors-only mode the Agent calls holding an error. A block mounted again opens if it is here.
   */
  readonly expand: ReadonlySet<string>;
  /** The call a deep link points at. */
  readonly focus: string | undefined;
  /** The newest jump: the calls on its own way; each jump (to the same place too) has the next `seq`. */
  readonly jump: Jump;
  /** Expand-all / collapse-all: a change of `version` resets every block to `open`. */
  readonly openAll: { readonly version: number; readonly open: boolean };
  /** The open state of each block of the session by key, once set (`useKeptOpen`); none: not kept. */
  readonly kept?: Map<string, KeptOpen> | undefined;
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
  jump: { seq: 0, path: new Set() },
  openAll: { version: 0, open: false },
  liveVersion: 0,
  SubagentView: () => null,
});

export const useTimeline = () => useContext(TimelineCtx);

/**
 * A block's open state once something set it (the reader, a jump, expand or collapse all), with what it was set after:
 * the newest jump, the expand/collapse-all version, whether its call was among the calls to open. The virtual list unmounts the rows scrolled
 * away; a row mounted again shows its blocks as they were, and only what came since applies.
 */
export interface KeptOpen {
  readonly open: boolean;
  readonly jumpSeq: number;
  readonly allVersion: number;
  /** Whether its call was among the calls to open (`expand`) then. */
  readonly inExpand: boolean;
}

/**
 * The open state of a block (a call's, an Agent call's subagent timeline, a thinking block), kept under `key` (unique
 * in the session) once set (`KeptOpen`). For a block of a `call`: opened when the call's id joins `expand` (or is there
 * when it first mounts: a row the virtual list mounts) and at each jump whose way goes through it (or, with
 * `opensOnFocus`, to it); never at a jump elsewhere, so a block the reader closed stays closed, scrolled away and back
 * too, until a jump goes through it again. Every block is set by "Expand all" and "Collapse all"; until set, it follows
 * `initial` (a call that fails opens).
 */
export function useKeptOpen(
  key: string,
  {
    call,
    initial = () => false,
    opensOnFocus = false,
  }: { call?: string; initial?: () => boolean; opensOnFocus?: boolean } = {},
): [boolean, Dispatch<SetStateAction<boolean>>] {
  const { expand, jump, focus, openAll, kept: keptOpen } = useTimeline();
  const onJump = call !== undefined && (jump.path.has(call) || (opensOnFocus && focus === call));
  const inExpand = call !== undefined && expand.has(call);
  // Where it starts: as it was kept, with what came since applied; else as a new block opens.
  const [start] = useState(() => {
    const kept = keptOpen?.get(key);
    if (kept === undefined) {
      return { open: (openAll.version > 0 ? openAll.open : initial()) || inExpand || onJump, set: false };
    }
    let open = kept.open;
    if (openAll.version > 0 && openAll.version !== kept.allVersion) open = openAll.open;
    if (inExpand && !kept.inExpand) open = true;
    if (jump.seq !== kept.jumpSeq && onJump) open = true;
    return { open, set: true };
  });
  const [open, setOpenState] = useState(start.open);
  const set = useRef(start.set);
  const setOpen = useCallback<Dispatch<SetStateAction<boolean>>>((value) => {
    set.current = true;
    setOpenState(value);
  }, []);
  // What was applied already: at mount, everything of now.
  const appliedAll = useRef(openAll.version);
  const held = useRef(inExpand);
  const appliedJump = useRef(jump.seq);
  useEffect(() => {
    if (openAll.version === appliedAll.current) return;
    appliedAll.current = openAll.version;
    if (openAll.version > 0) setOpen(openAll.open);
  }, [openAll, setOpen]);
  useEffect(() => {
    if (inExpand && !held.current) setOpen(true);
    held.current = inExpand;
  }, [inExpand, setOpen]);
  useEffect(() => {
    if (jump.seq === appliedJump.current) return;
    appliedJump.current = jump.seq;
    if (onJump) setOpen(true);
  }, [jump, onJump, setOpen]);
  useEffect(() => {
    if (set.current) keptOpen?.set(key, { open, jumpSeq: jump.seq, allVersion: openAll.version, inExpand });
  }, [keptOpen, key, open, jump, openAll, inExpand]);
  return [open, setOpen];
}
