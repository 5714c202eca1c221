import type { CallDto, EventDto, ResultData } from '../data/types';

type Todos = ResultData<'todo-write'>['newTodos'];

function todoWriteOf(call: CallDto): ResultData<'todo-write'> | undefined {
  const typed = call.result?.typed;
  return typed?.kind === 'todo-write' && !call.result?.isError ? typed.data : undefined;
}

/**
 * For each todo update of one thread (a session's main line or one subagent's) whose client wrote an empty list
 * before (`oldTodos: []`) while the same thread had written a list earlier, or wrote none at all (Codex's
 * update_plan records only the new plan) after an earlier update: that earlier list, by call id.
 *
 * Why: Claude Code (seen in 1.0.98) writes `oldTodos: []` in a subagent's result even after the subagent wrote a
 * list; Codex writes no list before. The renderer shows the inferred list as inferred, never in place of what the
 * client wrote silently. An update whose `oldTodos` is not empty is left alone; failed updates wrote nothing.
 */
export function inferTodosBefore(events: readonly EventDto[]): ReadonlyMap<string, Todos> {
  const inferred = new Map<string, Todos>();
  let previous: Todos | undefined;
  for (const event of events) {
    if (event.kind !== 'assistant') continue;
    for (const item of event.items) {
      if (item.kind !== 'tool-call') continue;
      const data = todoWriteOf(item);
      if (data === undefined) continue;
      if (data.oldTodos?.length === 0 && previous !== undefined && previous.length > 0) {
        inferred.set(item.id, previous);
      } else if (data.oldTodos === undefined && previous !== undefined) {
        inferred.set(item.id, previous);
      }
      previous = data.newTodos;
    }
  }
  return inferred;
}
