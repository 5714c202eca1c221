import { describe, expect, it } from 'vitest';
import { codexFailureOf } from './errors.js';

describe("a Codex call's failure, weighed as Claude Code's are", () => {
  it('is expected when it writes to or closes a process or agent that already ended (as BashOutput, KillShell)', () => {
    // 0.98.0 and 0.169.0 in ../shared/corpus-agents: Claude's "No shell found with ID" is expected, so is this
    expect(codexFailureOf('write_stdin', 'write_stdin failed: Unknown process id 99999', true, true)).toEqual({
      category: 'not-running',
      severity: 'expected',
      message: 'write_stdin failed: Unknown process id 99999',
    });
    expect(codexFailureOf('close_agent', 'agent with id 0199 not found', true, true)?.severity).toBe('expected');
  });

  it('is a real error otherwise, and expected only for the user declining', () => {
    expect(codexFailureOf('write_stdin', 'write_stdin failed: stdin is closed for this session', true, true)).toEqual({
      category: 'other',
      severity: 'error',
      message: 'write_stdin failed: stdin is closed for this session',
    });
    expect(codexFailureOf('apply_patch', 'patch rejected by user', true, true)?.severity).toBe('expected');
    expect(codexFailureOf('shell', 'unsupported call: shell', true, true)?.severity).toBe('error');
  });
});
