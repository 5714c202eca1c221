import { describe, expect, it } from 'vitest';
import { summarizeCall } from './summarize-call.js';

const call = (name: string, input: unknown, result?: Parameters<typeof summarizeCall>[0]['result']) => ({
  name,
  canonicalName: name === 'Task' ? 'Agent' : name,
  input,
  result,
});

describe('summarizeCall', () => {
  it('Edit: path relative to the project, lines added and removed', () => {
    const edit = call('Edit', { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b\nc\nd' });
    expect(summarizeCall(edit, '/p')).toBe('Edit src/a.ts +3 −1');
    const patched = call(
      'Edit',
      { file_path: '/p/a.ts' },
      {
        isError: false,
        toolUseResult: { structuredPatch: [{ lines: [' x', '-y', '+z', '+w'] }] },
      },
    );
    expect(summarizeCall(patched, '/p')).toBe('Edit a.ts +2 −1');
    const typed = call(
      'Edit',
      { file_path: '/p/a.ts' },
      {
        isError: false,
        toolUseResult: {},
        typed: { kind: 'edit', data: { linesAdded: 5, linesRemoved: 0 } },
      },
    );
    expect(summarizeCall(typed, '/p')).toBe('Edit a.ts +5 −0');
  });

  it('Bash: the command and its exit', () => {
    const failed = call(
      'Bash',
      { command: 'npm test' },
      {
        isError: true,
        toolUseResult: 'Error',
        error: { category: 'exit-code', exitCode: 1 },
      },
    );
    expect(summarizeCall(failed)).toBe('Bash npm test → exit 1');
    expect(summarizeCall(call('Bash', { command: 'ls' }, { isError: false, toolUseResult: { stdout: '' } }))).toBe(
      'Bash ls → ok',
    );
    expect(summarizeCall(call('Bash', { command: 'sleep 9', run_in_background: true }))).toBe('Bash sleep 9 &');
  });

  it('other tools', () => {
    expect(summarizeCall(call('Grep', { pattern: 'TODO', path: '/p/src' }), '/p')).toBe('Grep "TODO" in src');
    expect(summarizeCall(call('Task', { description: 'Survey', subagent_type: 'general-purpose' }))).toBe(
      'Task Survey (general-purpose)',
    );
    expect(
      summarizeCall(
        call('Read', { file_path: '/x' }, { isError: true, toolUseResult: '', error: { category: 'file-not-found' } }),
      ),
    ).toBe('Read /x → file-not-found');
    expect(summarizeCall(call('mcp__srv__echo', { text: 'hi' }))).toBe('mcp__srv__echo hi');
    expect(summarizeCall(call('TodoWrite', { todos: [{ status: 'completed' }, { status: 'pending' }] }))).toBe(
      'TodoWrite 2 todos, 1 done',
    );
  });
});
