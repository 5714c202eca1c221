import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledHomes } from '@agentdash/testing/shared';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

/** A Codex 0.169 rollout whose third call reuses the id of its first (a reviewer's crafted copy of the corpus). */
function rolloutReusingAnId(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'reused-id-')), 'sessions/2026/11/23');
  mkdirSync(dir, { recursive: true });
  const id = '01a205e9-0000-7000-8000-523238294335';
  const at = (s: number) => `2026-11-23T00:58:${String(20 + s).padStart(2, '0')}.000Z`;
  const line = (s: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(s), type, payload });
  const usage = {
    input_tokens: 10,
    cached_input_tokens: 0,
    output_tokens: 5,
    reasoning_output_tokens: 0,
    total_tokens: 15,
  };
  const call = (s: number, callId: string, cmd: string) => [
    line(s, 'response_item', {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd }),
      call_id: callId,
    }),
    line(s + 1, 'response_item', { type: 'function_call_output', call_id: callId, output: `ran ${cmd}` }),
    // each call its own response, as the client counts them
    line(s + 1, 'event_msg', { type: 'token_count', info: { last_token_usage: usage, total_token_usage: usage } }),
  ];
  const file = join(dir, `rollout-2026-11-23T00-58-20-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line(0, 'session_meta', { id, timestamp: at(0), cwd: '/repo', originator: 'codex_exec', cli_version: '0.169.0' }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look.' }] }),
      ...call(2, 'call_a', 'ls'),
      ...call(4, 'call_b', 'pwd'),
      ...call(6, 'call_a', 'cat README.md'),
    ].join('\n')}\n`,
  );
  return file;
}

async function groupsOf(path: string) {
  return groupSessions((await discoverAll([path])).files);
}

describe('a call whose id another call already has', () => {
  // Before: the third call was in no timeline and no count, and the only issue was its result's "second result".
  it('is an issue naming both calls’ lines, loaded or streamed', async () => {
    const file = rolloutReusingAnId();
    const [group] = await groupsOf(file);
    if (group === undefined) throw new Error('no session');
    const reused = (issues: readonly { code: string; line: number; message: string }[]) =>
      issues.filter((i) => i.code === 'reused_call_id').map((i) => [i.line, i.message]);
    const expected = [
      [
        9,
        'exec_command call reuses the id call_a of the exec_command call at line 3: results pair by id, so it is not shown as a call of its own',
      ],
    ];
    expect(reused((await loadSession(group)).issues)).toEqual(expected);
    expect(reused((await (await openSessionStream(group)).tail()).issues)).toEqual(expected);
  });

  // Over ../shared (472 sessions) only the hand-made Codex schema fixture whose ids are all "[trimmed for fixture]"
  // has one: checked when this was written, not on every run (it loads every session).
  it('is not said of the copies resumed and forked sessions repeat (every bundled session)', async () => {
    const said: string[] = [];
    for (const home of bundledHomes) {
      for (const group of await groupsOf(home)) {
        for (const issue of (await loadSession(group)).issues)
          if (issue.code === 'reused_call_id') said.push(issue.file);
      }
    }
    expect(said).toEqual([]);
  }, 120_000);
});
