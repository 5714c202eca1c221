import { describe, expect, it } from 'vitest';
import { codexFixtures } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { ToolCall } from '../../model/tool-call.js';
import { typeCodexInput } from './type-input.js';

async function fixtureCalls(): Promise<ToolCall[]> {
  const { files } = await discoverAll([codexFixtures]);
  const sessions = await Promise.all(groupSessions(files).map((group) => loadSession(group)));
  return sessions.flatMap((s) => s.calls);
}

describe('typeCodexInput: Codex arguments under the shared names', () => {
  it('every shell call of the bundled rollouts has its command, every plan its steps', async () => {
    const calls = await fixtureCalls();
    // write_stdin names a running session, not a command; a call whose arguments are not JSON has none to read.
    const unreadable = (c: ToolCall) => typeof c.input === 'object' && c.input !== null && 'invalidJson' in c.input;
    const shells = calls.filter((c) => c.toolKind === 'bash' && c.name !== 'write_stdin' && !unreadable(c));
    expect(shells.length).toBeGreaterThan(20);
    for (const call of shells) expect(call.typedInput?.command, call.id).toMatch(/\S/);
    const plans = calls.filter((c) => c.canonicalName === 'update_plan');
    expect(plans.length).toBeGreaterThan(0);
    for (const call of plans) expect(call.typedInput?.todos?.length, call.id).toBeGreaterThan(0);
  });

  it('maps each argument family, and never throws on bad input', () => {
    expect(typeCodexInput('exec_command', { command: ['bash', '-lc', 'ls -la'], timeout_ms: 500 })).toEqual({
      command: 'ls -la',
      timeoutMs: 500,
    });
    expect(typeCodexInput('exec_command', { command: ['git', 'commit', '-m', 'a b'] })).toEqual({
      command: "git commit -m 'a b'",
    });
    expect(typeCodexInput('exec_command', { cmd: 'npm test' })).toEqual({ command: 'npm test' });
    // What write_stdin types, as written (before: only in the raw input, reached through "Copy input").
    expect(typeCodexInput('write_stdin', { session_id: 7, chars: '' })).toEqual({ taskId: '7', stdin: '' });
    expect(typeCodexInput('write_stdin', { session_id: 13883, chars: 'typed into cat\n\u0004' })).toEqual({
      taskId: '13883',
      stdin: 'typed into cat\n\u0004',
    });
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
    expect(typeCodexInput('apply_patch', { input: patch })).toEqual({ filePath: 'a.txt', patch });
    expect(typeCodexInput('exec_command', { command: ['apply_patch', patch] })).toEqual({ filePath: 'a.txt', patch });
    expect(typeCodexInput('update_plan', { plan: [{ step: 's', status: 'completed' }], explanation: 'why' })).toEqual({
      todos: [{ content: 's', status: 'completed' }],
      description: 'why',
    });
    expect(typeCodexInput('view_image', { path: '/p/a.png' })).toEqual({ filePath: '/p/a.png' });
    expect(typeCodexInput('collaboration.spawn_agent', { message: 'go', agent_type: 'explorer' })).toEqual({
      prompt: 'go',
      agentType: 'explorer',
    });
    // Every query a search ran (wild entire-agentv-1: the second was in no view but the raw input).
    expect(typeCodexInput('web_search', { type: 'search', query: 'a b', queries: ['a b', 'c d', 7] })).toEqual({
      query: 'a b · c d',
    });
    expect(typeCodexInput('web_search', { type: 'search', query: 'a b' })).toEqual({ query: 'a b' });
    expect(typeCodexInput('exec_command', null)).toEqual({});
    expect(typeCodexInput('exec_command', { command: [1, 2] })).toEqual({});
  });

  it('says a command runs in PowerShell: in a Windows folder (unless it names a POSIX shell), or by its argv', () => {
    // as the wild rollout of Codex on Windows writes it
    const workdir = 'C:\\Users\\dev\\proj';
    expect(typeCodexInput('exec_command', { command: 'Get-Content -Path .env.api', workdir })).toEqual({
      command: 'Get-Content -Path .env.api',
      shell: 'powershell',
    });
    expect(
      typeCodexInput('exec_command', { command: ['powershell.exe', '-NoProfile', '-Command', 'gc a.txt'] }),
    ).toEqual({
      command: 'gc a.txt',
      shell: 'powershell',
    });
    // Git Bash in a Windows folder, and any command elsewhere: a POSIX shell
    expect(typeCodexInput('exec_command', { command: ['bash', '-lc', 'cat a.txt'], workdir })).toEqual({
      command: 'cat a.txt',
    });
    expect(typeCodexInput('exec_command', { command: 'cat a.txt', workdir: '/home/dev/proj' })).toEqual({
      command: 'cat a.txt',
    });
  });
});
