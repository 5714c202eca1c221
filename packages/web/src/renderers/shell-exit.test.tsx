import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { BashRenderer } from './shell';
import { callOf } from './test-call';

/** A Codex `exec_command` as core types it (corpus 0.169 shell scenario). */
const execCommand = (data: Record<string, unknown>) =>
  callOf(
    'exec_command',
    { cmd: 'cat', yield_time_ms: 300, tty: true },
    '',
    {
      kind: 'bash',
      tool: 'exec_command',
      data: { stdout: '', stderr: '', interrupted: false, ...data },
    } as TypedResult,
    'bash',
    { command: 'cat' },
  );
const badgeOf = (html: string, testId: string) =>
  new RegExp(`data-testid="${testId}"[^>]*>([^<]*(?:<!-- -->[^<]*)*)<`).exec(html)?.[1]?.replaceAll('<!-- -->', '');

describe('a shell call’s exit badge', () => {
  // Before: `exit 0` for a process the output says is still running, the exit code invented from the call's success.
  it('is absent while the process still runs; the call shows its session instead', () => {
    const html = renderToStaticMarkup(<BashRenderer call={execCommand({ runningSessionId: '13883' })} />);
    expect(badgeOf(html, 'exit-code')).toBeUndefined();
    expect(badgeOf(html, 'running-session')).toBe('still running · session 13883');
  });

  it('is absent when the result gives no exit code', () => {
    expect(badgeOf(renderToStaticMarkup(<BashRenderer call={execCommand({})} />), 'exit-code')).toBeUndefined();
  });

  it('shows the exit code the result gives', () => {
    const html = renderToStaticMarkup(<BashRenderer call={execCommand({ exitCode: 0 })} />);
    expect(badgeOf(html, 'exit-code')).toBe('exit 0');
    expect(badgeOf(html, 'running-session')).toBeUndefined();
  });
});
