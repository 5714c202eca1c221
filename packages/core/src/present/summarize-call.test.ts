import { describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../agents/adapter.js';
import { adapterFor } from '../agents/adapters.js';
import { replacementLines } from './line-diff.js';
import { readSpan, type SummarizableCall, summarizeCall } from './summarize-call.js';

/** A call as the adapter of `agent` describes it: canonical name, kind and typed input, as loadSession gives them. */
const callOf =
  (adapter: AgentAdapter | undefined) =>
  (name: string, input: unknown, result?: SummarizableCall['result']): SummarizableCall => {
    if (adapter === undefined) throw new Error('adapter not registered');
    const canonicalName = adapter.canonicalToolName(name);
    return {
      name,
      canonicalName,
      toolKind: adapter.kindOfTool?.(canonicalName),
      input,
      typedInput: adapter.typeInput?.(canonicalName, input),
      result,
    };
  };
const call = callOf(adapterFor('claude'));
const codexCall = callOf(adapterFor('codex'));
const geminiCall = callOf(adapterFor('gemini'));

describe('summarizeCall', () => {
  it("Write: a file's lines as the file has them (a trailing newline starts no line)", () => {
    const write = (content: string) => summarizeCall(call('Write', { file_path: '/p/new.txt', content }), '/p');
    expect(write('a brand new file\nwith two lines\n')).toBe('Write new.txt (2 lines)');
    expect(write('no newline at the end')).toBe('Write new.txt (1 line)');
    expect(write('')).toBe('Write new.txt');
    expect(summarizeCall(call('Edit', { file_path: '/p/a.ts', old_string: 'x\n', new_string: 'y\nz\n' }), '/p')).toBe(
      'Edit a.ts +2 −1',
    );
  });

  it('Edit: path relative to the project, lines added and removed', () => {
    const edit = call('Edit', { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b\nc\nd' });
    expect(summarizeCall(edit, '/p')).toBe('Edit src/a.ts +3 −1');
    const patched = call(
      'Edit',
      { file_path: '/p/a.ts' },
      {
        isError: false,
        typed: { kind: 'edit', data: { structuredPatch: [], linesAdded: 2, linesRemoved: 1 } },
      },
    );
    expect(summarizeCall(patched, '/p')).toBe('Edit a.ts +2 −1');
    const typed = call(
      'Edit',
      { file_path: '/p/a.ts' },
      {
        isError: false,
        typed: { kind: 'edit', data: { linesAdded: 5, linesRemoved: 0 } },
      },
    );
    expect(summarizeCall(typed, '/p')).toBe('Edit a.ts +5 −0');
  });

  it('Edit: counts the lines its replacement changes, not all it names; none when it failed', () => {
    // 56 lines asked for, 8 of them changed (Copilot CLI and Gemini CLI record no patch of their own)
    const before = Array.from({ length: 56 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i % 7 === 3 ? `${line} changed` : line));
    const edit = call('Edit', { file_path: '/p/a.ts', old_string: before.join('\n'), new_string: after.join('\n') });
    expect(summarizeCall(edit, '/p')).toBe('Edit a.ts +8 −8');
    expect(replacementLines('a\nb\nc\n', 'a\nx\nc\n')).toEqual([' a', '-b', '+x', ' c']);
    // a file made by an edit: its lines, no empty one for its final newline
    expect(replacementLines('', 'one\ntwo\n')).toEqual(['+one', '+two']);
    const failed = call(
      'Edit',
      { file_path: '/p/a.ts', old_string: 'no such text', new_string: 'x' },
      { isError: true, error: { category: 'string-not-found' } },
    );
    expect(summarizeCall(failed, '/p')).toBe('Edit a.ts → string-not-found');
  });

  it('Bash: the command and its exit', () => {
    const failed = call(
      'Bash',
      { command: 'npm test' },
      {
        isError: true,
        error: { category: 'exit-code', exitCode: 1 },
      },
    );
    expect(summarizeCall(failed)).toBe('Bash npm test → exit 1');
    expect(summarizeCall(call('Bash', { command: 'ls' }, { isError: false }))).toBe('Bash ls → ok');
    expect(summarizeCall(call('Bash', { command: 'sleep 9', run_in_background: true }))).toBe('Bash sleep 9 &');
  });

  it('other tools', () => {
    expect(summarizeCall(call('Grep', { pattern: 'TODO', path: '/p/src' }), '/p')).toBe('Grep "TODO" in src');
    expect(summarizeCall(call('Task', { description: 'Survey', subagent_type: 'general-purpose' }))).toBe(
      'Task Survey (general-purpose)',
    );
    expect(
      summarizeCall(call('Read', { file_path: '/x' }, { isError: true, error: { category: 'file-not-found' } })),
    ).toBe('Read /x → file-not-found');
    expect(summarizeCall(call('mcp__srv__echo', { text: 'hi' }))).toBe('mcp__srv__echo hi');
    expect(summarizeCall(call('TodoWrite', { todos: [{ status: 'completed' }, { status: 'pending' }] }))).toBe(
      'TodoWrite 2 todos, 1 done',
    );
  });

  it('a Codex or Gemini call reads like the Claude call that does the same', () => {
    const ok = (exitCode: number) => ({ isError: false, typed: { kind: 'bash', data: { exitCode } } });
    expect(summarizeCall(codexCall('shell', { command: ['bash', '-lc', 'npm test'] }, ok(0)))).toBe(
      'shell npm test → exit 0',
    );
    expect(summarizeCall(codexCall('exec_command', { cmd: 'ls -la', workdir: '/p' }, ok(2)))).toBe(
      'exec_command ls -la → exit 2',
    );
    expect(summarizeCall(geminiCall('run_shell_command', { command: 'make', is_background: true }))).toBe(
      'run_shell_command make &',
    );
    expect(summarizeCall(geminiCall('read_file', { file_path: '/p/src/a.ts', start_line: 3, end_line: 5 }), '/p')).toBe(
      'read_file src/a.ts:3+3',
    );
    expect(summarizeCall(call('Read', { file_path: '/p/src/a.ts', offset: 3, limit: 3 }), '/p')).toBe(
      'Read src/a.ts:3+3',
    );
    expect(
      summarizeCall(geminiCall('search_file_content', { pattern: 'TODO', dir_path: '/p/src', include: '*.ts' }), '/p'),
    ).toBe('search_file_content "TODO" in src (*.ts)');
    expect(summarizeCall(geminiCall('write_todos', { todos: [{ description: 'a', status: 'completed' }] }))).toBe(
      'write_todos 1 todos, 1 done',
    );
    expect(summarizeCall(codexCall('update_plan', { plan: [{ step: 'a', status: 'pending' }] }))).toBe(
      'update_plan 1 todos, 0 done',
    );
  });

  it('a Codex patch: its file, or the first and how many more, with lines added and removed', () => {
    const patch = '*** Begin Patch\n*** Update File: /p/a.ts\n@@\n-x\n+y\n+z\n*** End Patch';
    expect(summarizeCall(codexCall('apply_patch', { input: patch }), '/p')).toBe('apply_patch a.ts');
    const files = [
      { path: '/p/a.ts', operation: 'update', hunks: [], linesAdded: 2, linesRemoved: 1 },
      { path: '/p/b.ts', operation: 'add', hunks: [], linesAdded: 4, linesRemoved: 0 },
    ];
    const result = { isError: false, typed: { kind: 'patch', data: { files } } };
    expect(summarizeCall(codexCall('apply_patch', { input: patch }, result), '/p')).toBe(
      'apply_patch a.ts and 1 more +6 −1',
    );
  });
});

describe("a Codex `exec` script's summary", () => {
  // as Codex 0.145 wrote them (../shared/wild-agents, entire-graph-5): a JavaScript script calling its tools
  const run = (cmd: string) =>
    `const r = await tools.exec_command({cmd:${JSON.stringify(cmd)},"workdir":"/p","yield_time_ms":10000}); text(r.output)\n`;
  it('names the command it runs, not the script around it', () => {
    expect(summarizeCall(codexCall('exec', { input: run('entire agent-help') }))).toBe('exec entire agent-help');
    expect(summarizeCall(codexCall('exec', { input: `${run('git status')}${run('git log -3')}${run('ls')}` }))).toBe(
      'exec git status and 2 more',
    );
  });
  it('names the files its patch changes when it runs no command', () => {
    const patch = '*** Begin Patch\n*** Update File: /p/src/a.ts\n@@\n-x\n+y\n*** End Patch';
    const script = `const patch = ${JSON.stringify(patch)};\nawait tools.apply_patch(patch);\n`;
    expect(summarizeCall(codexCall('exec', { input: script }), '/p')).toBe('exec src/a.ts');
  });
  it('shows the script when it names neither', () => {
    expect(summarizeCall(codexCall('exec', { input: 'text(1 + 1)' }))).toBe('exec text(1 + 1)');
  });
});

describe('readSpan', () => {
  // Counts as typed (file lines: Claude Code's are mended when typed, `fileLines`), taken as they are.
  it('gives the typed counts, a part whose last line is empty included', () => {
    expect(readSpan('for (let i = 0; i <= n; i++) {}\n', 1, 1, 1)).toEqual({ start: 1, end: 1, total: 1 });
    expect(readSpan('tick 1\ntick 2\n', 1, 2, 2)).toEqual({ start: 1, end: 2, total: 2 });
    // lines 1-3 of 10, the third empty: before, taken for Claude Code's phantom line and cut to "1-2 of 9"
    expect(readSpan('a\nb\n', 1, 3, 10)).toEqual({ start: 1, end: 3, total: 10 });
  });

  it('keeps the counts of a part of a file, and of a text without a final newline', () => {
    const part = ['line 10', 'line 11', 'line 12', 'line 13', 'line 14'].join('\n');
    expect(readSpan(part, 10, 5, 31)).toEqual({ start: 10, end: 14, total: 31 });
    expect(readSpan('a\nb', 1, 2, 2)).toEqual({ start: 1, end: 2, total: 2 });
  });

  it('counts the text itself when the client gave no counts', () => {
    expect(readSpan('a\nb\nc\n', 4)).toEqual({ start: 4, end: 6, total: undefined });
    expect(readSpan('', 1)).toEqual({ start: 1, end: 1, total: undefined });
  });
});
