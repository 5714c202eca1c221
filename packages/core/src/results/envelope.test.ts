import { describe, expect, it } from 'vitest';
import { kindOfTool } from '../adapters/claude-code/results/tools/index.js';
import { typeToolResult } from '../adapters/claude-code/results/type-result.js';
import { canonicalToolName } from '../adapters/claude-code/tool-names.js';
import type { ResultContent } from '../model/content.js';
import { createToolUseId, type IsoTimestamp } from '../model/ids.js';
import type { CallStatus, ToolCall } from '../model/tool-call.js';
import { toEnvelope } from './envelope.js';

function call(
  name: string,
  content: ResultContent | undefined,
  options: { input?: unknown; toolUseResult?: unknown; isError?: boolean; status?: CallStatus } = {},
): ToolCall {
  const id = createToolUseId('toolu_test');
  const loc = { file: 'x.jsonl', line: 1, offset: 0 };
  const isError = options.isError ?? false;
  const outcome =
    content === undefined
      ? undefined
      : typeToolResult({
          name,
          canonicalName: canonicalToolName(name),
          input: options.input ?? {},
          content,
          toolUseResult: options.toolUseResult,
          isError,
        });
  return {
    kind: 'tool-call',
    id,
    name,
    canonicalName: canonicalToolName(name),
    toolKind: kindOfTool(canonicalToolName(name)),
    input: options.input ?? {},
    timestamp: '2026-01-01T00:00:00.000Z' as IsoTimestamp,
    loc,
    messageId: undefined,
    agentId: undefined,
    status: options.status ?? (isError ? 'error' : 'ok'),
    result:
      outcome && content !== undefined
        ? {
            toolUseId: id,
            uuid: undefined,
            timestamp: undefined,
            loc,
            isError,
            content,
            toolUseResult: options.toolUseResult,
            ...outcome,
          }
        : undefined,
    durations: [],
    subagentKey: undefined,
  };
}

describe('toEnvelope (seed 004)', () => {
  it('a Bash command that exited non-zero is still success with its exit code', () => {
    expect(toEnvelope(call('Bash', 'Exit code 3\nto-stderr\n\nto-stdout', { isError: true }))).toEqual({
      success: true,
      data: { tool: 'Bash', kind: 'bash', output: 'to-stderr\n\nto-stdout', exit_code: 3 },
    });
  });

  it('a failed Bash command whose exit code the client did not print (1.0.128) is a failure', () => {
    expect(toEnvelope(call('Bash', 'Error', { isError: true }))).toEqual({ success: false, error: 'Error' });
    expect(toEnvelope(call('Bash', 'to-stderr\n\nto-stdout', { isError: true }))).toEqual({
      success: false,
      error: 'to-stderr\n\nto-stdout',
    });
  });

  it('a successful Bash command: output and exit code 0', () => {
    const env = toEnvelope(
      call('Bash', 'hi', { toolUseResult: { stdout: 'hi', stderr: 'warn', interrupted: false, isImage: false } }),
    );
    expect(env).toEqual({
      success: true,
      data: { tool: 'Bash', kind: 'bash', output: 'hi\nwarn', exit_code: 0, interrupted: false },
    });
  });

  it("a command's image output is named, not its base64 (it was the whole data URL)", () => {
    const stdout = `data:image/png;base64,${'iVBORw0KGgo'.repeat(100)}`;
    const toolUseResult = { stdout, stderr: '', interrupted: false, isImage: true };
    expect(toEnvelope(call('Bash', [], { toolUseResult }))).toEqual({
      success: true,
      data: { tool: 'Bash', kind: 'bash', output: '[image image/png]', exit_code: 0, interrupted: false },
    });
  });

  it('tool failures are success:false with the unwrapped message', () => {
    expect(
      toEnvelope(call('Read', '<tool_use_error>File does not exist.</tool_use_error>', { isError: true })),
    ).toEqual({
      success: false,
      error: 'File does not exist.',
    });
    expect(toEnvelope(call('Bash', 'Exit code 143\nCommand timed out after 1s', { isError: true }))).toEqual({
      success: false,
      error: 'Exit code 143\nCommand timed out after 1s',
    });
  });

  it('glob and grep carry a count, write carries bytes', () => {
    expect(
      toEnvelope(
        call('Glob', 'a.c\nb.c', {
          toolUseResult: { filenames: ['a.c', 'b.c'], numFiles: 2, durationMs: 3, truncated: false },
        }),
      ),
    ).toEqual({ success: true, data: { tool: 'Glob', kind: 'glob', output: 'a.c\nb.c', count: 2 } });
    expect(toEnvelope(call('Grep', 'Found 1 file\nx.c', { input: { output_mode: 'files_with_matches' } }))).toEqual({
      success: true,
      data: { tool: 'Grep', kind: 'grep', output: 'x.c', count: 1, mode: 'files_with_matches' },
    });
    expect(
      toEnvelope(
        call('Write', 'File created successfully at: /t/é.txt', {
          input: { file_path: '/t/é.txt', content: 'héllo\n' },
        }),
      ),
    ).toEqual({
      success: true,
      data: {
        tool: 'Write',
        kind: 'write',
        output: 'Created /t/é.txt',
        file_path: '/t/é.txt',
        operation: 'create',
        bytes: 7,
        lines_added: 1,
        lines_removed: 0,
      },
    });
  });

  it('calls without a result are success:false', () => {
    expect(toEnvelope(call('Bash', undefined, { status: 'pending' }))).toEqual({
      success: false,
      error: 'No result yet: the call is still running',
    });
    expect(toEnvelope(call('Bash', undefined, { status: 'unanswered' }))).toEqual({
      success: false,
      error: 'No result: the call was never answered',
    });
  });

  it('unknown tools keep their raw toolUseResult', () => {
    expect(toEnvelope(call('Frob', 'done', { toolUseResult: { a: 1 } }))).toEqual({
      success: true,
      data: { tool: 'Frob', kind: 'unknown', output: 'done', tool_use_result: { a: 1 } },
    });
  });
});
