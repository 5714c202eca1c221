import { describe, expect, it } from 'vitest';
import type { IsoTimestamp, RecordUuid, ToolUseId } from '../../model/ids.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import { typeCodexResult } from './type-result.js';

const loc = { file: 'rollout.jsonl', line: 1, offset: 0 };
function typeOne(name: string, input: unknown, output: string, toolUseResult?: unknown) {
  const call: RawCall = {
    id: 'call_1' as ToolUseId,
    name,
    input,
    timestamp: undefined,
    loc,
    messageId: undefined,
  };
  const result: RawResult = {
    toolUseId: 'call_1' as ToolUseId,
    uuid: 'r1' as RecordUuid,
    timestamp: '2026-11-23T00:57:46.828Z' as IsoTimestamp,
    loc,
    isError: false,
    content: output,
    toolUseResult,
  };
  return typeCodexResult(call, result).typed;
}

describe('Codex goal tools', () => {
  it('types create_goal, get_goal and update_goal answers (0.169.0) as goals', () => {
    const goal = (status: string, tokens: number, seconds: number) =>
      JSON.stringify({
        goal: {
          threadId: 't',
          objective: 'Exercise the goal tools',
          status,
          tokensUsed: tokens,
          timeUsedSeconds: seconds,
        },
        remainingTokens: null,
        completionBudgetReport: status === 'complete' ? 'Goal achieved. Report final usage.' : null,
      });
    expect(typeOne('create_goal', { objective: 'Exercise the goal tools' }, goal('active', 0, 0))).toEqual({
      kind: 'goal',
      tool: 'create_goal',
      data: { objective: 'Exercise the goal tools', status: 'active', tokensUsed: 0, timeUsedSeconds: 0 },
    });
    expect(typeOne('update_goal', { status: 'complete' }, goal('complete', 9368, 1))).toEqual({
      kind: 'goal',
      tool: 'update_goal',
      data: {
        objective: 'Exercise the goal tools',
        status: 'complete',
        tokensUsed: 9368,
        timeUsedSeconds: 1,
        report: 'Goal achieved. Report final usage.',
      },
    });
    // An answer that is not JSON still names the objective the call asked for.
    expect(typeOne('create_goal', { objective: 'Ship it' }, 'goal created')).toMatchObject({
      kind: 'goal',
      data: { objective: 'Ship it' },
    });
  });
});

describe('Codex wait_agent', () => {
  // The two shapes of its answer in ../shared/wild-agents (entire-git-sync-1, entire-graph-6), texts shortened.
  it('types each agent waited for with its state and last message', () => {
    const answer = JSON.stringify({
      status: {
        '019d7d09-b4a2-74f0-b87f-791514eb33b8': { completed: 'Findings\n\n1. High: prune semantics' },
        '019d7d09-b449-7180-ae04-3b7cfb51b201': 'running',
      },
      timed_out: false,
    });
    expect(typeOne('wait_agent', { targets: ['019d7d09-b4a2'], timeout_ms: 300000 }, answer)).toEqual({
      kind: 'agent-wait',
      tool: 'wait_agent',
      data: {
        agents: [
          {
            agentId: '019d7d09-b4a2-74f0-b87f-791514eb33b8',
            status: 'completed',
            text: 'Findings\n\n1. High: prune semantics',
          },
          { agentId: '019d7d09-b449-7180-ae04-3b7cfb51b201', status: 'running' },
        ],
        timedOut: false,
      },
    });
  });

  it('keeps the client’s words when it names no agent, and a text that is not JSON', () => {
    expect(
      typeOne('wait_agent', { timeout_ms: 10000 }, JSON.stringify({ message: 'Wait timed out.', timed_out: true })),
    ).toEqual({
      kind: 'agent-wait',
      tool: 'wait_agent',
      data: { agents: [], timedOut: true, message: 'Wait timed out.' },
    });
    expect(typeOne('wait_agent', {}, 'no agents')).toEqual({
      kind: 'agent-wait',
      tool: 'wait_agent',
      data: { agents: [], message: 'no agents' },
    });
  });
});

describe('Codex apply_patch', () => {
  const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', ' keep', '-old', '+new', '*** End Patch'].join(
    '\n',
  );

  it('takes the hunks the tool applied, with their line numbers, from patch_apply_end (0.144)', () => {
    const end = {
      patchApplyEnd: {
        success: true,
        changes: {
          '/repo/src/a.ts': { type: 'update', unified_diff: '@@ -18,2 +18,2 @@\n keep\n-old\n+new\n', move_path: null },
        },
      },
    };
    const typed = typeOne('apply_patch', { input: patch }, 'Success.', end);
    expect(typed.kind === 'patch' && typed.data.files).toEqual([
      {
        path: 'src/a.ts',
        operation: 'update',
        hunks: [{ oldStart: 18, oldLines: 2, newStart: 18, newLines: 2, lines: [' keep', '-old', '+new'] }],
        linesAdded: 1,
        linesRemoved: 1,
      },
    ]);
  });

  it('keeps the hunks as written, without line numbers, when the tool reported no diff of the file', () => {
    const end = {
      patchApplyEnd: { changes: { '/repo/src/b.ts': { type: 'update', unified_diff: '@@ -1 +1 @@\n-x\n+y' } } },
    };
    const typed = typeOne('apply_patch', { input: patch }, 'Success.', end);
    expect(typed.kind === 'patch' && typed.data.files[0]?.hunks).toEqual([{ lines: [' keep', '-old', '+new'] }]);
  });
});

describe('apply_patch in a shell here-document', () => {
  // As the model wrote it through `shell` in 219 calls of the wild Codex sessions (0.3x–0.5x): a diff, not a command.
  const patch = '*** Begin Patch\n*** Update File: README.md\n@@\n intro\n+a new line\n*** End Patch';
  const files = (typed: ReturnType<typeof typeOne>) =>
    typed.kind === 'patch'
      ? typed.data.files.map((f) => [f.operation, f.path, f.linesAdded, f.linesRemoved])
      : typed.kind;

  it('is a patch of its files, with or without the end marker, as a vector or a string', () => {
    const done = 'Success. Updated the following files:\nM README.md\n';
    for (const script of [
      `apply_patch << 'PATCH'\n${patch}\nPATCH\n`,
      `apply_patch <<EOF\n${patch}\nEOF`,
      `apply_patch <<'PATCH'\n${patch}`,
    ]) {
      expect(files(typeOne('shell', { command: ['bash', '-lc', script] }, done))).toEqual([
        ['update', 'README.md', 1, 0],
      ]);
      expect(files(typeOne('exec_command', { cmd: script }, done))).toEqual([['update', 'README.md', 1, 0]]);
    }
  });

  it('is a shell command when the script does more than apply the patch', () => {
    const script = `cd sub && apply_patch <<'PATCH'\n${patch}\nPATCH`;
    expect(files(typeOne('shell', { command: ['bash', '-lc', script] }, ''))).toBe('bash');
    expect(
      files(typeOne('shell', { command: ['bash', '-lc', `apply_patch <<'PATCH'\n${patch}\nPATCH\nnpm test`] }, '')),
    ).toBe('bash');
  });
});

describe('a Codex web search', () => {
  // Before: `texts: [query]`, the output (the query again) read as the search's results.
  it('has no result texts when its output is its query (Codex keeps no results)', () => {
    const typed = typeOne('web_search', { query: 'codex rollout format' }, 'codex rollout format');
    expect(typed).toMatchObject({ kind: 'web-search', data: { query: 'codex rollout format', links: [], texts: [] } });
    // its output with a line break after it too (the renderer compares them trimmed)
    const again = typeOne('web_search', { query: 'codex rollout format' }, 'codex rollout format\n');
    expect(again).toMatchObject({ data: { texts: [] } });
  });
});
