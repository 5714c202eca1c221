import { describe, expect, it } from 'vitest';
import { loadSessions, samplesHome } from '../../../test/helpers.js';
import type { ToolCall } from '../../model/tool-call.js';
import { typeInput } from './type-input.js';

const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

describe('typeInput: Claude Code arguments under the shared names', () => {
  it('every sample call gets its arguments under the shared names, with no undefined values', async () => {
    const calls: ToolCall[] = (await loadSessions(samplesHome)).flatMap((s) => s.calls);
    expect(calls.length).toBeGreaterThan(50);
    const withFile = calls.filter((c) => c.typedInput?.filePath !== undefined);
    const withCommand = calls.filter((c) => c.typedInput?.command !== undefined);
    expect(withFile.length).toBeGreaterThan(10);
    expect(withCommand.length).toBeGreaterThan(5);
    for (const call of calls) {
      const raw = rec(call.input);
      const typed = call.typedInput ?? {};
      expect(
        Object.values(typed).filter((v) => v === undefined),
        call.id,
      ).toEqual([]);
      expect(typed.filePath, call.id).toEqual(raw.file_path ?? raw.notebook_path ?? raw.filePath);
      expect(typed.oldString, call.id).toEqual(raw.old_string);
      expect(typed.background, call.id).toEqual(raw.run_in_background);
      expect(typed.edits?.length, call.id).toEqual(Array.isArray(raw.edits) ? raw.edits.length : undefined);
    }
  });

  it('maps each argument family, and never throws on bad input', () => {
    expect(typeInput('Bash', { command: 'ls', description: 'list', timeout: 5000, run_in_background: true })).toEqual({
      command: 'ls',
      description: 'list',
      timeoutMs: 5000,
      background: true,
    });
    expect(typeInput('Grep', { pattern: 'x', path: 'src', '-i': true, '-C': 3, output_mode: 'content' })).toEqual({
      pattern: 'x',
      path: 'src',
      outputMode: 'content',
      flags: ['-i', '-C 3'],
    });
    // a cap the call asked for is said with the flags (1.0.128 wrote no appliedLimit: "1 file" read as all)
    expect(typeInput('Grep', { pattern: 'x', head_limit: 1 }).flags).toEqual(['head_limit 1']);
    expect(typeInput('Grep', { pattern: 'x', head_limit: 0 }).flags).toBeUndefined();
    expect(typeInput('MultiEdit', { file_path: '/a', edits: [{ old_string: 'a', new_string: 'b' }, 7] })).toEqual({
      filePath: '/a',
      edits: [
        { oldString: 'a', newString: 'b' },
        { oldString: '', newString: '' },
      ],
    });
    expect(typeInput('SlashCommand', { command: '/review' })).toEqual({ command: '/review', skillName: '/review' });
    expect(typeInput('TaskOutput', { bash_id: 'b1' })).toEqual({ taskId: 'b1' });
    expect(typeInput('Read', null)).toEqual({});
    expect(typeInput('Read', 'text')).toEqual({});
    expect(typeInput('Read', { file_path: 7, questions: 'no', todos: [null] })).toEqual({
      todos: [{ content: '', status: 'pending' }],
    });
    // A bare string among the items (claude-code-log's edge_cases fixture) keeps its text.
    expect(typeInput('TodoWrite', { todos: ['broken_todo', { content: 'Fix', status: 'completed' }] })).toEqual({
      todos: [
        { content: 'broken_todo', status: 'pending' },
        { content: 'Fix', status: 'completed' },
      ],
    });
  });
});
