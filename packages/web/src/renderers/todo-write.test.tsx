import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { type TimelineContext, TimelineCtx } from '../timeline/context';
import { TodoWriteRenderer } from './tasks';
import { callOf } from './test-call';

const plan = [
  { content: 'Read the code', status: 'completed' },
  { content: 'Fix the bug', status: 'in_progress' },
];
const typed = (data: Record<string, unknown>) => ({ kind: 'todo-write', tool: 'x', data }) as unknown as TypedResult;

describe('a plan update', () => {
  it('does not call the plan before a Codex update_plan empty: the transcript does not hold it', () => {
    const call = callOf('update_plan', { plan: [] }, 'Plan updated', typed({ newTodos: plan }), 'todo-write');
    const html = renderToStaticMarkup(<TodoWriteRenderer call={call} />);
    expect(html).not.toContain('(empty)');
    expect(html).not.toContain('Before');
    expect(html).toContain('the plan before this update is not in the transcript');
    expect(html).toContain('Fix the bug');
  });

  it('shows the plan before a TodoWrite, empty when it was, and what changed', () => {
    const empty = callOf('TodoWrite', {}, '', typed({ oldTodos: [], newTodos: plan }), 'todo-write');
    expect(renderToStaticMarkup(<TodoWriteRenderer call={empty} />)).toContain('(empty)');
    const before = [{ content: 'Fix the bug', status: 'pending' }];
    const changed = callOf('TodoWrite', {}, '', typed({ oldTodos: before, newTodos: plan }), 'todo-write');
    const html = renderToStaticMarkup(<TodoWriteRenderer call={changed} />);
    expect(html).toContain('Before');
    expect(html.match(/data-testid="todo-(added|changed)"/g)).toEqual([
      'data-testid="todo-added"',
      'data-testid="todo-changed"',
    ]);
  });
});

describe('a TodoWrite whose list holds a bare string (a wild fixture: claude-code-log edge_cases)', () => {
  it('shows the string as an item, not an empty row, and the header counts it', () => {
    const todos = ['broken_todo', { id: '2', content: 'Fix the bug', status: 'in_progress' }];
    const call = callOf('TodoWrite', { todos }, '', typed({ newTodos: todos }), 'todo-write');
    const html = renderToStaticMarkup(<TodoWriteRenderer call={call} />);
    expect([...html.matchAll(/class="todo-text">([^<]*)</g)].map((m) => m[1])).toEqual(['broken_todo', 'Fix the bug']);
    expect(html).toContain('0/2 completed');
  });
});

describe('a TodoWrite in a thread whose client wrote an empty list before', () => {
  const call = callOf('TodoWrite', {}, '', typed({ oldTodos: [], newTodos: plan }), 'todo-write');
  const inThread = (todosBefore: TimelineContext['todosBefore']) =>
    renderToStaticMarkup(
      <TimelineCtx.Provider value={{ ...defaults, todosBefore }}>
        <TodoWriteRenderer call={call} />
      </TimelineCtx.Provider>,
    );
  const defaults = {
    sessionId: 's',
    shells: {},
    expand: new Set<string>(),
    focus: undefined,
    jump: { seq: 0, path: new Set<string>() },
    openAll: { version: 0, open: false },
    liveVersion: 0,
    SubagentView: () => null,
  };

  it('shows the thread previous list, said to be inferred', () => {
    const html = inThread(new Map([[call.id, [{ content: 'Read the code', status: 'in_progress' }]]]));
    expect(html).not.toContain('(empty)');
    expect(html).toContain('data-testid="todos-before-inferred"');
    expect(html).toContain('from the previous update');
    expect(html.match(/data-testid="todo-(added|changed)"/g)).toEqual([
      'data-testid="todo-changed"',
      'data-testid="todo-added"',
    ]);
  });

  it("shows a Codex update_plan's previous plan as the previous update's, said so", () => {
    const codex = callOf('update_plan', { plan: [] }, 'Plan updated', typed({ newTodos: plan }), 'todo-write');
    const html = renderToStaticMarkup(
      <TimelineCtx.Provider value={{ ...defaults, todosBefore: new Map([[codex.id, plan.slice(0, 1)]]) }}>
        <TodoWriteRenderer call={codex} />
      </TimelineCtx.Provider>,
    );
    expect(html).toContain('Before');
    expect(html).toContain('the client records only the new plan');
    expect(html).not.toContain('is not in the transcript');
  });

  it('shows the empty list the client wrote when the thread has no earlier update', () => {
    const html = inThread(new Map());
    expect(html).toContain('(empty)');
    expect(html).not.toContain('todos-before-inferred');
  });
});
