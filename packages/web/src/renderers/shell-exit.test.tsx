import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto, TypedResult } from '../data/types';
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

/** A command that exited non-zero, as the API gives it: the result failed with core's exit-code error. */
const failedShell = (
  name: string,
  content: string,
  message: string,
  exitCode: number,
  category = 'exit-code',
): CallDto => {
  const base = callOf(name, { command: 'ls /nonexistent-dir-rec' }, content, {} as TypedResult, 'bash', {
    command: 'ls /nonexistent-dir-rec',
  });
  const error = { category, severity: 'error', exitCode, message } as NonNullable<
    NonNullable<CallDto['result']>['error']
  >;
  const typed = { kind: 'error', tool: name, message } as TypedResult;
  return {
    ...base,
    status: 'error',
    result: { ...(base.result as NonNullable<CallDto['result']>), isError: true, typed, error },
  };
};
const terminalText = (html: string) =>
  (/<div class="terminal"[^>]*>([\s\S]*)<\/div>$/.exec(html)?.[1] ?? '')
    .replace(/<div class="cmd-row">[\s\S]*?<\/div><\/div>/, '')
    .replace(/<[^>]+>/g, '')
    .replaceAll('<!-- -->', '');

describe('a command that exited non-zero', () => {
  // Before: Gemini CLI 0.61's framing (`<untrusted_context>`, `Output:`, `Exit Code:`, the process group) was shown as
  // the command's output, while its successes showed the output alone.
  it('shows its output alone, as each agent wrote it (Gemini 0.61 corpus, shell scenario)', () => {
    const gemini = failedShell(
      'run_shell_command',
      "<untrusted_context>\nOutput: ls: cannot access '/nonexistent-dir-rec': No such file or directory\nExit Code: 2\nProcess Group PGID: 30087\n</untrusted_context>",
      "Exit code 2\nls: cannot access '/nonexistent-dir-rec': No such file or directory",
      2,
    );
    const html = renderToStaticMarkup(<BashRenderer call={gemini} />);
    expect(terminalText(html)).toBe('ls: cannot access &#x27;/nonexistent-dir-rec&#x27;: No such file or directory');
    expect(badgeOf(html, 'exit-code')).toBe('exit 2');
  });

  it('is the same for Claude Code, whose result starts with the code the badge shows (2.1.330 corpus)', () => {
    const claude = failedShell('Bash', 'Exit code 3\nto-stdout\nto-stderr', 'Exit code 3\nto-stdout\nto-stderr', 3);
    expect(terminalText(renderToStaticMarkup(<BashRenderer call={claude} />))).toBe('to-stdout\nto-stderr');
    // a timeout's too (2.1.330 corpus: exit 143), whose code the badge shows as well
    const killed = failedShell(
      'Bash',
      'Exit code 143\nCommand timed out after 1s',
      'Exit code 143\nCommand timed out after 1s',
      143,
      'timeout',
    );
    expect(terminalText(renderToStaticMarkup(<BashRenderer call={killed} />))).toBe('Command timed out after 1s');
    const silent = failedShell('Bash', 'Exit code 1', 'Exit code 1', 1);
    expect(terminalText(renderToStaticMarkup(<BashRenderer call={silent} />))).toBe('(no output)');
  });
});

describe("a shell call's edits as the client saw them", () => {
  it('lists each file it changed with its lines and hunks, text escaped', () => {
    const patch = [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: ['+// <b>formatted</b>', ' kept'] }];
    const html = renderToStaticMarkup(
      <BashRenderer
        call={execCommand({
          exitCode: 0,
          editedFiles: [
            { filePath: '/p/src/a.js', structuredPatch: patch, linesAdded: 1, linesRemoved: 0 },
            { filePath: '/p/src/b.js', structuredPatch: patch, linesAdded: 1, linesRemoved: 0 },
          ],
        })}
      />,
    );
    const edited = /data-testid="edited-files">(.*)$/s.exec(html)?.[1] ?? '';
    expect(edited).toContain('Changed 2 files, as the client saw them change:');
    expect([...edited.matchAll(/class="path">([^<]*)</g)].map((m) => m[1])).toEqual(['/p/src/a.js', '/p/src/b.js']);
    expect(edited).toContain('&lt;b&gt;formatted&lt;/b&gt;');
    expect(edited).not.toContain('<b>');
  });
});
