import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { askedChanges, TaskToolRenderer } from './tasks';
import { callOf } from './test-call';

/** A TaskUpdate call as Claude Code 2.1.330 writes it (the samples' tasks session), with its typed result. */
const update = (input: Record<string, unknown>, data: Record<string, unknown>) =>
  callOf(
    'TaskUpdate',
    input,
    'Updated task',
    { kind: 'task-update', tool: 'TaskUpdate', data } as unknown as TypedResult,
    'task-update',
    input as never,
  );

describe('TaskUpdate', () => {
  it('shows what it asked to change, not only the names of the fields changed', () => {
    const html = renderToStaticMarkup(
      <TaskToolRenderer
        call={update(
          { taskId: '2', addBlockedBy: ['1'] },
          { success: true, taskId: '2', updatedFields: ['blockedBy'] },
        )}
      />,
    );
    expect(html).toContain('#2');
    expect(html).toMatch(/data-testid="task-update-field"[^>]*>blocked by #1</);
    expect(html).not.toContain('updated blockedBy');
  });

  it('says a status once: as its change when the result has one, else as asked', () => {
    const changed = renderToStaticMarkup(
      <TaskToolRenderer
        call={update(
          { taskId: '1', status: 'completed' },
          {
            success: true,
            taskId: '1',
            updatedFields: ['status'],
            statusChange: { from: 'in_progress', to: 'completed' },
          },
        )}
      />,
    );
    expect(changed).toContain('data-testid="todo-changed"');
    expect(changed).not.toContain('task-update-field');
    const refused = renderToStaticMarkup(
      <TaskToolRenderer
        call={update(
          { taskId: '999', status: 'completed' },
          { success: false, taskId: '999', updatedFields: [], error: 'Task not found' },
        )}
      />,
    );
    expect(refused).toMatch(/task-update-field[^>]*>status → completed</);
    expect(refused).toContain('Task not found');
  });

  it('words each field, long values cut', () => {
    expect(
      askedChanges(
        {
          taskId: '3',
          addBlocks: ['4', 5],
          subject: 'Ship it',
          owner: 'agent-a',
          metadata: { x: 1 },
          description: 'd'.repeat(300),
        },
        false,
      ),
    ).toEqual([
      ['addBlocks', 'blocks #4, #5'],
      ['subject', 'subject: Ship it'],
      ['owner', 'owner: agent-a'],
      ['metadata', 'metadata: {"x":1}'],
      ['description', `description: ${'d'.repeat(200)}…`],
    ]);
  });
});

describe("a TaskUpdate's task", () => {
  it('is named by its subject beside its id when the session created it', () => {
    const call = {
      ...update({ taskId: '1', status: 'completed' }, { success: true, taskId: '1', updatedFields: ['status'] }),
      taskSubject: 'Write the <b>parser</b>',
    };
    const html = renderToStaticMarkup(<TaskToolRenderer call={call} />);
    expect(html).toMatch(/#1<\/span><span[^>]*data-testid="task-subject"[^>]*>Write the &lt;b&gt;parser&lt;\/b&gt;</);
    const unnamed = renderToStaticMarkup(
      <TaskToolRenderer call={update({ taskId: '9' }, { success: true, taskId: '9', updatedFields: [] })} />,
    );
    expect(unnamed).not.toContain('task-subject');
  });
});
