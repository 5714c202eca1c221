/**
 * Codex 0.169's goal tools write the goal as context for the model: a `function_call_output` with no `call_id`
 * (its line's metadata says `additional_context_tool_output`), answering no call. It was read as the result of a call
 * nowhere in the session (an `orphan_result` issue on a clean session) and its words were shown nowhere; it is a note
 * of the session now, with its tool's name and its text.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';

it('keeps an output that answers no call as a note, not as an orphan result', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-context-')), 'sessions/2026/11/23');
  mkdirSync(dir, { recursive: true });
  const id = '01a205e8-b21e-7a63-9ec6-0000000c0e7e';
  const at = (s: number) => `2026-11-23T00:57:${String(40 + s).padStart(2, '0')}.000Z`;
  const line = (s: number, type: string, payload: unknown, more: object = {}) =>
    JSON.stringify({ timestamp: at(s), ordinal: s, type, payload, ...more });
  const file = join(dir, `rollout-2026-11-23T00-57-40-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line(0, 'session_meta', { id, timestamp: at(0), cwd: '/repo', originator: 'codex_exec', cli_version: '0.169.0' }),
      line(1, 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Set a goal.' }],
      }),
      // as the real client wrote it (corpus-agents codex 0.169.0, goals, line 14)
      line(
        2,
        'response_item',
        {
          type: 'function_call_output',
          id: 'fco_01a205e8-b64f-7c43-996b-a14b457c668d',
          name: 'goal_objective',
          namespace: 'agent',
          output: 'Exercise the goal tools',
        },
        { metadata: { history_sequence: 6, additional_context_tool_output: true, client_authored: false } },
      ),
      line(3, 'response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done.' }],
      }),
    ].join('\n')}\n`,
  );
  const [group] = groupSessions((await discoverAll([file])).files);
  if (group === undefined) throw new Error('no session');
  const session = await loadSession(group);
  expect(session.issues.map((i) => i.code)).toEqual([]);
  const notes = session.events.flatMap((e) =>
    e.kind === 'system' ? [[e.record.subtype, e.record.content] as const] : [],
  );
  expect(notes).toEqual([['context', 'goal_objective: Exercise the goal tools']]);
  expect(session.calls).toEqual([]);
});
