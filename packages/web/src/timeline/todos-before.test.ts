import { describe, expect, it } from 'vitest';
import type { CallDto, EventDto, TypedResult } from '../data/types';
import { callOf } from '../renderers/test-call';
import { inferTodosBefore } from './todos-before';

const first = [{ content: 'Read the code', status: 'in_progress' }];
const second = [{ content: 'Read the code', status: 'completed' }];

function todoWrite(id: string, data: Record<string, unknown>, isError = false): CallDto {
  const typed = { kind: 'todo-write', tool: 'TodoWrite', data } as unknown as TypedResult;
  const call = callOf('TodoWrite', {}, '', typed, 'todo-write');
  return { ...call, id, result: call.result && { ...call.result, isError } };
}

const turn = (index: number, ...items: CallDto[]) =>
  ({ kind: 'assistant', index, uuid: `u${index}`, timestamp: null, items }) as unknown as EventDto;

describe('the todo list before an update, inferred from its thread', () => {
  it('is the previous update of the thread when the client wrote an empty list before', () => {
    const events = [
      turn(0, todoWrite('a', { oldTodos: [], newTodos: first })),
      turn(1, todoWrite('b', { oldTodos: [], newTodos: second })),
    ];
    const inferred = inferTodosBefore(events);
    expect(inferred.get('a')).toBeUndefined();
    expect(inferred.get('b')).toEqual(first);
  });

  it('leaves alone what the client wrote, and failed updates', () => {
    const events = [
      turn(0, todoWrite('a', { oldTodos: [], newTodos: first })),
      turn(1, todoWrite('b', { oldTodos: first, newTodos: second })),
      turn(3, todoWrite('d', { oldTodos: [], newTodos: [] }, true)),
    ];
    expect(inferTodosBefore(events).size).toBe(0);
  });

  it("is the previous update's when the client writes no list before (Codex's update_plan), none for the first", () => {
    const events = [
      turn(0, todoWrite('a', { newTodos: first })),
      turn(1, todoWrite('b', { newTodos: second })),
      turn(2, todoWrite('c', { newTodos: [] })),
    ];
    const inferred = inferTodosBefore(events);
    expect([inferred.get('a'), inferred.get('b'), inferred.get('c')]).toEqual([undefined, first, second]);
  });
});
