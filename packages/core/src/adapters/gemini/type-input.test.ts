import { describe, expect, it } from 'vitest';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { ToolCall } from '../../model/tool-call.js';
import { discoverGemini } from './discover.js';
import { home020, home061 } from './test-helpers.js';
import { typeGeminiInput } from './type-input.js';

async function fixtureCalls(home: string): Promise<ToolCall[]> {
  const { files } = await discoverGemini(home);
  const sessions = await Promise.all(groupSessions(files).map((group) => loadSession(group)));
  return sessions.flatMap((s) => s.calls);
}

describe('typeGeminiInput: Gemini arguments under the shared names', () => {
  it.each([
    ['0.20', home020],
    ['0.61', home061],
  ])('%s: every file call has its file, every shell call its command', async (_, home) => {
    const calls = await fixtureCalls(home);
    const fileCalls = calls.filter((c) => ['read_file', 'write_file', 'replace'].includes(c.canonicalName));
    const shells = calls.filter((c) => c.canonicalName === 'run_shell_command');
    expect(fileCalls.length).toBeGreaterThan(0);
    expect(shells.length).toBeGreaterThan(0);
    for (const call of fileCalls) expect(call.typedInput?.filePath, call.id).toMatch(/\S/);
    for (const call of shells) expect(call.typedInput?.command, call.id).toMatch(/\S/);
  });

  it('maps both versions’ argument names, and never throws on bad input', () => {
    expect(typeGeminiInput('read_file', { absolute_path: '/a', offset: 0, limit: 3 })).toEqual({
      filePath: '/a',
      offset: 1,
      limit: 3,
    });
    expect(typeGeminiInput('read_file', { file_path: '/a', start_line: 4, end_line: 6 })).toEqual({
      filePath: '/a',
      offset: 4,
      limit: 3,
    });
    expect(typeGeminiInput('grep_search', { pattern: 'x', dir_path: 'src', include_pattern: '*.ts' })).toEqual({
      pattern: 'x',
      path: 'src',
      glob: '*.ts',
    });
    expect(typeGeminiInput('web_fetch', { prompt: 'Summarize https://example.com/a.html now' })).toEqual({
      prompt: 'Summarize https://example.com/a.html now',
      url: 'https://example.com/a.html',
    });
    expect(typeGeminiInput('write_todos', { todos: [{ description: 'd', status: 'completed' }, 5] })).toEqual({
      todos: [
        { content: 'd', status: 'completed' },
        { content: '', status: 'pending' },
      ],
    });
    expect(typeGeminiInput('run_shell_command', 'ls')).toEqual({});
    expect(typeGeminiInput('replace', { file_path: 7 })).toEqual({});
  });
});
