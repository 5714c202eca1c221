import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto, TypedResult } from '../data/types';
import { BashRenderer, ShellStopRenderer } from './shell';
import { callOf } from './test-call';

const finished = callOf(
  'Bash',
  { command: 'true' },
  '',
  { kind: 'bash', tool: 'Bash', data: {} } as unknown as TypedResult,
  'bash',
  {
    command: 'true',
  },
);
const without = (call: CallDto, status: 'pending' | 'unanswered'): CallDto => ({ ...call, status, result: null });
const emptyLine = (html: string) => /data-testid="terminal-empty">([^<]*)</.exec(html)?.[1];

describe('a shell call without its result', () => {
  it('says it is still running, not that it wrote nothing', () => {
    const html = renderToStaticMarkup(<BashRenderer call={without(finished, 'pending')} />);
    expect(emptyLine(html)).toBe('Running: waiting for its result.');
  });

  it('says the conversation went on without its result', () => {
    const call = { ...without(finished, 'unanswered'), noResult: 'conversation-went-on' } as const;
    expect(emptyLine(renderToStaticMarkup(<BashRenderer call={call} />))).toBe(
      'No result: the conversation went on without one.',
    );
  });

  // Before: "the conversation went on without one" for the session's last event too (Codex killed mid-tool).
  it('says the session ends before its result came', () => {
    const call = { ...without(finished, 'unanswered'), noResult: 'session-ended' } as const;
    expect(emptyLine(renderToStaticMarkup(<BashRenderer call={call} />))).toBe(
      'No result: the session ends before one came (interrupted, killed or cut off).',
    );
  });

  it('without the reason (a snapshot exported before it was given), claims neither', () => {
    const html = renderToStaticMarkup(<BashRenderer call={without(finished, 'unanswered')} />);
    expect(emptyLine(html)).toBe('No result was recorded.');
  });

  it('finished with nothing written, says so', () => {
    expect(emptyLine(renderToStaticMarkup(<BashRenderer call={finished} />))).toBe('(no output)');
  });

  it('stopping a shell, running, does not say there was nothing to stop', () => {
    const stop = callOf(
      'KillShell',
      { shell_id: 'b1' },
      '',
      { kind: 'task-stop', tool: 'KillShell', data: {} } as unknown as TypedResult,
      'task-stop',
      { taskId: 'b1' },
    );
    const html = renderToStaticMarkup(<ShellStopRenderer call={without(stop, 'pending')} />);
    expect(html).not.toContain('not running');
    expect(html).toContain('Running: waiting for its result.');
  });
});
