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

/** A Codex `write_stdin` to session 13883, as the corpus 0.169 shell scenario wrote it. */
const writeStdin = (chars: string) =>
  callOf(
    'write_stdin',
    { session_id: 13883, chars, yield_time_ms: 1000 },
    'typed into cat\r\ntyped into cat\r\n',
    {
      kind: 'bash',
      tool: 'write_stdin',
      data: { stdout: '', stderr: '', interrupted: false, exitCode: 0 },
    } as TypedResult,
    'bash',
    { taskId: '13883', stdin: chars },
  );
const stdinLine = (html: string) =>
  /data-testid="stdin"[^>]*>(.*?)<\/pre>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .replaceAll('<!-- -->', '');

describe('a write to a running process', () => {
  // Before: the block showed only `$ # to session 13883`; what was typed was reachable only through "Copy input".
  it('shows what was typed, control characters visible', () => {
    const html = renderToStaticMarkup(<BashRenderer call={writeStdin('typed into cat\n\u0004')} />);
    expect(stdinLine(html)).toBe('typed typed into cat\\n^D');
  });

  it('that typed nothing says it only reads the output', () => {
    expect(stdinLine(renderToStaticMarkup(<BashRenderer call={writeStdin('')} />))).toBe(
      'nothing typed: reads its output',
    );
  });
});

describe('a shell call whose arguments are no JSON', () => {
  it('shows the arguments as the model wrote them, and says so (Codex 0.98: a cut JSON string)', () => {
    const call = callOf(
      'exec_command',
      { arguments: '{"cmd": "echo broken json', invalidJson: true },
      'failed to parse function arguments: EOF while parsing a string at line 1 column 26',
      { kind: 'bash', tool: 'exec_command', data: { stdout: '', stderr: '', interrupted: false } } as TypedResult,
      'bash',
      {},
    );
    const html = renderToStaticMarkup(<BashRenderer call={call} />);
    expect(html).toContain('{&quot;cmd&quot;: &quot;echo broken json');
    expect(html).toContain('arguments not JSON');
  });
});
