import { describe, expect, it } from 'vitest';
import { desktopRolloutHead, rolloutLine as line, rolloutSessions } from '../../../test/codex-rollout.js';
import { codexAdapter } from './adapter.js';

const id = '019f80ed-65ac-7eb3-9c28-9885c0fbca91';
const sessionOf = rolloutSessions(id);

const output = (callId: string, text: string) => ({ type: 'function_call_output', call_id: callId, output: text });

/**
 * A 0.145 multi-agent rollout, trimmed from ../shared/wild-agents (entire-graph-6, lines 1, 8, 42–44, 426–427):
 * its tools come as `namespace: "collaboration"` beside their name.
 */
function rollout(): string {
  const call = (name: string, callId: string, args: unknown) => ({
    type: 'function_call',
    name,
    namespace: 'collaboration',
    arguments: JSON.stringify(args),
    call_id: callId,
  });
  return `${[
    ...desktopRolloutHead(id, 'Review the open pull requests.'),
    line(
      '2026-07-20T19:08:45.444Z',
      'response_item',
      call('spawn_agent', 'call_spawn', { agent_type: 'explorer', message: 'Review PR 36', task_name: 'review_pr36' }),
    ),
    line('2026-07-20T19:08:45.639Z', 'event_msg', {
      type: 'sub_agent_activity',
      event_id: 'call_spawn',
      agent_thread_id: '019f80ee-401e-78f1-919f-34033e956ba8',
      agent_path: '/root/review_pr36',
      kind: 'started',
    }),
    line('2026-07-20T19:08:45.808Z', 'response_item', output('call_spawn', '{"task_name":"/root/review_pr36"}')),
    line('2026-07-20T19:19:01.502Z', 'response_item', call('wait_agent', 'call_wait', { timeout_ms: 10000 })),
    line(
      '2026-07-20T19:19:06.334Z',
      'response_item',
      output('call_wait', '{"message":"Wait completed.","timed_out":false}'),
    ),
  ].join('\n')}\n`;
}

describe('Codex multi-agent tools (namespace "collaboration")', () => {
  it('are the tools they name: spawn_agent starts an agent, wait_agent waits for one', async () => {
    const session = await sessionOf(rollout());
    // Were `collaboration__spawn_agent` and `collaboration__wait_agent`, of no kind: raw JSON in the timeline, the
    // prompt untyped, a tool of its own in the statistics.
    expect(
      session.calls.map((c) => [c.name, c.canonicalName, c.toolKind, c.status, c.result?.typed?.kind, c.typedInput]),
    ).toEqual([
      [
        'collaboration__spawn_agent',
        'spawn_agent',
        'agent',
        'ok',
        'agent',
        { prompt: 'Review PR 36', agentType: 'explorer', name: 'review_pr36' },
      ],
      ['collaboration__wait_agent', 'wait_agent', 'agent-wait', 'ok', 'agent-wait', {}],
    ]);
    expect(codexAdapter.canonicalToolName('collaboration.spawn_agent')).toBe('spawn_agent');
    expect(codexAdapter.canonicalToolName('mcp__collaboration__spawn_agent')).toBe('mcp__collaboration__spawn_agent');
  });

  it("a spawn the client refused is a failed call (0.118: 'collab spawn failed: …', no new thread)", async () => {
    // Trimmed from ../shared/wild-agents (entire-git-sync-1, 019d7d08…, lines of call_a460E4SC…): the seventh agent.
    const spawn = {
      type: 'function_call',
      name: 'spawn_agent',
      arguments: JSON.stringify({ agent_type: 'explorer', message: 'Review the latest changes' }),
      call_id: 'call_spawn',
    };
    const session = await sessionOf(
      `${[
        line('2026-04-11T20:22:50.000Z', 'session_meta', { id, cwd: '/p/git-sync', cli_version: '0.118.0' }),
        line('2026-04-11T20:22:50.100Z', 'turn_context', { cwd: '/p/git-sync', model: 'gpt-5.4' }),
        line('2026-04-11T20:22:53.349Z', 'response_item', spawn),
        line('2026-04-11T20:22:53.356Z', 'event_msg', {
          type: 'collab_agent_spawn_end',
          call_id: 'call_spawn',
          new_thread_id: null,
          prompt: 'Review the latest changes',
          status: 'not_found',
        }),
        line(
          '2026-04-11T20:22:53.384Z',
          'response_item',
          output('call_spawn', 'collab spawn failed: agent thread limit reached (max 6)'),
        ),
        line('2026-04-11T20:23:00.000Z', 'response_item', { ...spawn, name: 'wait_agent', call_id: 'call_wait' }),
        line('2026-04-11T20:23:00.100Z', 'response_item', output('call_wait', 'agent with id 019d7e3a not found')),
      ].join('\n')}\n`,
    );
    // Were both `ok`: the client's refusal read as the spawn's answer.
    expect(session.calls.map((c) => [c.name, c.status, c.result?.error?.category, c.result?.error?.message])).toEqual([
      ['spawn_agent', 'error', 'other', 'collab spawn failed: agent thread limit reached (max 6)'],
      ['wait_agent', 'error', 'not-running', 'agent with id 019d7e3a not found'],
    ]);
  });

  it('a v2 spawn the client refused in plain text is a failed call (0.145: no JSON answer, no new agent)', async () => {
    // Trimmed from ../shared/wild-agents (entire-graph-6, 019f80ed…, lines 38–39): a full-history fork given an
    // agent type. A spawn's answer is JSON (`{"task_name": …}`, v1 `{"agent_id": …}`); a refusal is plain text.
    const spawn = {
      type: 'function_call',
      name: 'spawn_agent',
      namespace: 'collaboration',
      arguments: JSON.stringify({ agent_type: 'explorer', fork_turns: 'all', message: 'Review', task_name: 'pr36' }),
      call_id: 'call_spawn',
    };
    const refusal =
      'Full-history forked agents inherit the parent agent type; omit agent_type, or spawn without a full-history fork.';
    const session = await sessionOf(
      `${[
        line('2026-07-20T19:07:49.897Z', 'session_meta', { id, cwd: '/p/entire-graph', cli_version: '0.145.0' }),
        line('2026-07-20T19:07:51.180Z', 'turn_context', { cwd: '/p/entire-graph', model: 'gpt-5.6' }),
        line('2026-07-20T19:08:40.563Z', 'response_item', spawn),
        line('2026-07-20T19:08:40.574Z', 'response_item', output('call_spawn', refusal)),
        line('2026-07-20T19:08:45.444Z', 'response_item', { ...spawn, call_id: 'call_spawn2' }),
        line('2026-07-20T19:08:45.808Z', 'response_item', output('call_spawn2', '{"task_name":"/root/pr36"}')),
      ].join('\n')}\n`,
    );
    // Was `ok`, an agent typed as spawned.
    expect(
      session.calls.map((c) => [c.canonicalName, c.status, c.result?.error?.category, c.result?.typed?.kind]),
    ).toEqual([
      ['spawn_agent', 'error', 'other', 'error'],
      ['spawn_agent', 'ok', undefined, 'agent'],
    ]);
  });

  it("'agent with id … not found' is a refusal of the multi-agent tools only, not any tool's answer", async () => {
    const call = (name: string, callId: string) => ({ type: 'function_call', name, arguments: '{}', call_id: callId });
    const session = await sessionOf(
      `${[
        line('2026-04-11T20:22:50.000Z', 'session_meta', { id, cwd: '/p/fleet', cli_version: '0.118.0' }),
        line('2026-04-11T20:22:50.100Z', 'turn_context', { cwd: '/p/fleet', model: 'gpt-5.4' }),
        line('2026-04-11T20:22:51.000Z', 'response_item', call('mcp__fleet__find_agent', 'call_mcp')),
        line('2026-04-11T20:22:51.100Z', 'response_item', output('call_mcp', 'agent with id 42 not found')),
        line('2026-04-11T20:22:52.000Z', 'response_item', call('close_agent', 'call_close')),
        line('2026-04-11T20:22:52.100Z', 'response_item', output('call_close', 'agent with id 019d7e3a is closed')),
      ].join('\n')}\n`,
    );
    // The MCP tool's answer was an error (`not-running`): the rule read every tool's text.
    expect(session.calls.map((c) => [c.name, c.status, c.result?.error?.category])).toEqual([
      ['mcp__fleet__find_agent', 'ok', undefined],
      ['close_agent', 'error', 'not-running'],
    ]);
  });
});
