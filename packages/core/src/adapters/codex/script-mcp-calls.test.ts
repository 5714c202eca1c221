import { type RolloutLine, userSays } from '@agentdash/testing/codex-rollout';
import { describe, expect, it } from 'vitest';
import { loadRollout } from '../../../test/load-rollout.js';
import { primaryDurationMs } from '../../model/tool-call.js';

/** An MCP call's end as a 0.145 `exec` script's call of it was written (../shared wild-agents, entire-graph-6). */
const innerEnd = (s: number, id: string, tool: string, result: unknown, secs = 0, nanos = 841_751_333): RolloutLine => [
  s,
  'event_msg',
  {
    type: 'mcp_tool_call_end',
    call_id: `exec-${id}`,
    invocation: { server: 'codex_apps', tool, arguments: { repository_full_name: 'o/r', pr_number: 40 } },
    app_name: 'GitHub',
    duration: { secs, nanos },
    result,
  },
];

const ok = (text: string, isError = false) => ({
  Ok: { content: [{ type: 'text', text }], structuredContent: { number: 40, state: 'open' }, isError },
});

async function scriptSession(lines: readonly RolloutLine[]) {
  return loadRollout(
    '019f80ed-65ac-7eb3-9c28-9885c0fbca91',
    [
      userSays(1, 'Review and merge the open PRs.'),
      [
        2,
        'response_item',
        {
          type: 'custom_tool_call',
          status: 'completed',
          call_id: 'call_script',
          name: 'exec',
          input: 'const r = await tools.mcp__codex_apps__github_get_pr_info({pr_number: 40}); text(JSON.stringify(r));',
        },
      ],
      ...lines,
      [
        9,
        'response_item',
        {
          type: 'custom_tool_call_output',
          call_id: 'call_script',
          output: [{ type: 'input_text', text: 'Script completed\nWall time 6.4 seconds\nOutput:\n' }],
        },
      ],
    ],
    '0.145.0',
  );
}

// A Codex `exec` script (0.144+) calls MCP tools from its JavaScript; no response item names those calls: the client
// writes each only as an `mcp_tool_call_end` event with an `exec-…` id, between the script's call and its output
// (37 in ../shared/wild-agents, among them a 403 on merging a pull request). Before: each kept as a bookkeeping
// record, no call, its failure nowhere (the script's "Script completed" read as all went well).
describe('the MCP calls a Codex exec script makes', () => {
  it('are calls of their own, in order after the script, with arguments, result, duration and the script that made them', async () => {
    const session = await scriptSession([
      innerEnd(4, 'a', 'github.get_pr_info', ok('Action completed.'), 1, 500_000_000),
      innerEnd(5, 'b', 'github.search_prs', ok('Action completed.')),
    ]);
    expect(session.calls.map((c) => c.name)).toEqual([
      'exec',
      'mcp__codex_apps__github_get_pr_info',
      'mcp__codex_apps__github_search_prs',
    ]);
    const [, first] = session.calls;
    expect(first?.status).toBe('ok');
    expect(first?.id).toBe('exec-a');
    expect(first?.input).toEqual({ repository_full_name: 'o/r', pr_number: 40 });
    expect(first?.typedInput?.fromScript).toBe(true);
    expect(session.calls[0]?.typedInput?.fromScript).toBeUndefined();
    expect(first?.toolKind).toBe('mcp');
    // the structured content is what the call returned beyond "Action completed."
    const typed = first?.result?.typed;
    expect(typed?.kind).toBe('mcp');
    if (typed?.kind === 'mcp') {
      expect(typed.data.server).toBe('codex_apps');
      expect(JSON.parse(typed.data.text)).toEqual({ number: 40, state: 'open' });
    }
    // its own run, as the client reported it (its end is the event's time): not the 0 ms of one line
    expect(first && primaryDurationMs(first)).toBe(1500);
    expect(first?.timestamp).toBe('2026-11-23T00:59:22.500Z');
    // the script's own call is unchanged: its output, its result
    expect(session.calls[0]?.status).toBe('ok');
  });

  it('fail as the MCP server said: an error result (a 403) and a failed transport', async () => {
    const session = await scriptSession([
      innerEnd(4, 'm', 'github.merge_pull_request', ok('GitHub API error 403: Resource not accessible', true)),
      innerEnd(5, 't', 'github.list_pull_request_review_threads', {
        Err: 'tool call error: tool call failed for `codex_apps/github.list_pull_request_review_threads`',
      }),
    ]);
    const [, merge, threads] = session.calls;
    expect(merge?.status).toBe('error');
    expect(merge?.result?.error?.message).toContain('403');
    expect(threads?.status).toBe('error');
    expect(threads?.result?.error?.message).toContain('tool call failed');
    // no record of the session kept raw or as bookkeeping for them
    expect(session.counts.unknownRecords).toBe(0);
  });

  it('are calls by their ids alone; an MCP end of another id that no call names stays bookkeeping', async () => {
    const session = await loadRollout('019f80ed-65ac-7eb3-9c28-9885c0fbca92', [
      userSays(1, 'Hello.'),
      innerEnd(2, 'x', 'github.get_pr_info', ok('Action completed.')),
      [
        3,
        'event_msg',
        { ...(innerEnd(3, 'y', 'github.get_pr_info', ok('Action completed.'))[2] as object), call_id: 'call_9' },
      ],
    ]);
    expect(session.calls.map((c) => c.id)).toEqual(['exec-x']);
  });

  it('leave an end event whose id a call item named to that call: its output stays its result', async () => {
    const session = await loadRollout('019f80ed-65ac-7eb3-9c28-9885c0fbca93', [
      userSays(1, 'Hello.'),
      [2, 'response_item', { type: 'function_call', name: 'mcp__gh__get', arguments: '{}', call_id: 'exec-1234' }],
      innerEnd(3, '1234', 'get', ok('Action completed.')),
      [4, 'response_item', { type: 'function_call_output', call_id: 'exec-1234', output: 'the real output' }],
    ]);
    expect(session.calls.map((c) => [c.id, c.name])).toEqual([['exec-1234', 'mcp__gh__get']]);
    expect(session.calls[0]?.result?.content).toBe('the real output');
    // before: the end event was a second call of the id, its output a duplicate result dropped
    expect(session.issues.filter((i) => i.code === 'duplicate_result')).toEqual([]);
  });
});
