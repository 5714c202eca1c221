import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { TaskToolRenderer } from './tasks';
import { callOf } from './test-call';

const taskGet = (content: string, task: unknown) =>
  callOf(
    'TaskGet',
    { taskId: '999' },
    content,
    { kind: 'task-get', tool: 'TaskGet', data: { task } } as unknown as TypedResult,
    'task-get',
    { taskId: '999' },
  );

describe('TaskGet', () => {
  it('of a task no list holds says what the tool answered, never an empty row', () => {
    const html = renderToStaticMarkup(<TaskToolRenderer call={taskGet('Task not found', null)} />);
    expect(html).toContain('#999');
    expect(html).toMatch(/data-testid="task-not-found"[^>]*>Task not found</);
  });

  it('of a task shows it, and no "not found"', () => {
    const task = { id: '1', subject: 'Write the tests', status: 'pending', description: 'all of them' };
    const html = renderToStaticMarkup(<TaskToolRenderer call={taskGet('Task #1', task)} />);
    expect(html).toContain('Write the tests');
    expect(html).not.toContain('task-not-found');
  });
});
