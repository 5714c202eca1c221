import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { codexAdapter } from './adapter.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const id = '019f80ed-65ac-7eb3-9c28-9885c0fbca91';

/**
 * A 0.145 multi-agent rollout, trimmed from ../shared/wild-agents (entire-graph-6, lines 1, 8, 42–44, 426–427):
 * its tools come as `namespace: "collaboration"` beside their name.
 */
function rollout(): string {
  const line = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
  const call = (name: string, callId: string, args: unknown) => ({
    type: 'function_call',
    name,
    namespace: 'collaboration',
    arguments: JSON.stringify(args),
    call_id: callId,
  });
  const output = (callId: string, text: string) => ({ type: 'function_call_output', call_id: callId, output: text });
  return `${[
    line('2026-07-20T19:07:49.897Z', 'session_meta', {
      id,
      timestamp: '2026-07-20T19:07:49.581Z',
      cwd: '/p/entire-graph',
      originator: 'Codex Desktop',
      cli_version: '0.145.0-alpha.18',
    }),
    line('2026-07-20T19:07:51.180Z', 'turn_context', { cwd: '/p/entire-graph', model: 'gpt-5.6' }),
    line('2026-07-20T19:07:51.200Z', 'response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Review the open pull requests.' }],
    }),
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
    dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-collab-'));
    const sessions = join(dir, 'sessions/2026/07/20');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, `rollout-2026-07-20T21-07-49-${id}.jsonl`), rollout());
    const { files } = await discoverAll([dir]);
    const [group] = groupSessions(files);
    const session = await loadSession(group!);
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
});
