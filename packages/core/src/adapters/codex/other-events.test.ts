/**
 * Codex `event_msg` lines this reader does not fold into a response or a call: those with words of their own (the
 * approval guardian's assessment, a goal set, an undo, a background message) are the client's notes, shown and
 * searched; one it does not know is kept raw as an unknown record, shown and counted. Every one of them was a meta
 * record no view showed and no issue named (a review helper: wild agent-sessions-fixture-1's `guardian_assessment`,
 * `thread_goal_updated`, `undo_completed`; an invented `weird_event`).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';

it('shows worded events as notes and an unknown one as an unknown record', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-events-')), 'sessions/2026/08/03');
  mkdirSync(dir, { recursive: true });
  const id = '019fc8be-3658-7ca3-9e29-00000000e7e1';
  const at = (s: number) => `2026-08-03T08:48:${String(10 + s).padStart(2, '0')}.000Z`;
  const line = (s: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(s), type, payload });
  const event = (s: number, payload: unknown) => line(s, 'event_msg', payload);
  const file = join(dir, `rollout-2026-08-03T10-48-10-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line(0, 'session_meta', { id, timestamp: at(0), cwd: '/repo', originator: 'codex-tui', cli_version: '0.160.0' }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go.' }] }),
      event(2, { type: 'task_started', turn_id: 't1' }),
      event(3, {
        type: 'guardian_assessment',
        id: 'g1',
        status: 'denied',
        risk_level: 'high',
        rationale: 'It deletes the home folder.',
        action: { type: 'command', command: 'rm -rf ~' },
      }),
      event(4, { type: 'thread_goal_updated', goal: { objective: 'Ship the release notes', status: 'active' } }),
      event(5, { type: 'undo_completed', success: false, message: 'Nothing to undo.' }),
      event(6, { type: 'background_event', message: 'Connecting to the MCP server…' }),
      event(7, { type: 'weird_event', msg: 'QUUXWORD' }),
      // a payload that is no object: the line kept whole, by its type (it was "(no type)" with {} as its raw data)
      line(8, 'response_item', 'PAYLOADWORD'),
      line(9, 'response_item', null),
      event(10, { type: 'task_complete', turn_id: 't1' }),
    ].join('\n')}\n`,
  );
  const [group] = groupSessions((await discoverAll([file])).files);
  if (group === undefined) throw new Error('no session');
  const session = await loadSession(group);
  const notes = session.events.flatMap((e) =>
    e.kind === 'system' ? [[e.record.level, e.record.content] as const] : [],
  );
  expect(notes).toEqual([
    ['warning', 'Guardian denied (risk high): rm -rf ~ — It deletes the home folder.'],
    ['info', 'Goal active: Ship the release notes'],
    ['warning', 'Undo failed: Nothing to undo.'],
    ['info', 'Connecting to the MCP server…'],
  ]);
  const unknown = session.events.flatMap((e) => (e.kind === 'unknown' ? [e.record] : []));
  expect(unknown.map((r) => [r.type, JSON.stringify(r.raw)])).toEqual([
    [
      'event_msg:weird_event',
      JSON.stringify({ timestamp: at(7), type: 'event_msg', payload: { type: 'weird_event', msg: 'QUUXWORD' } }),
    ],
    ['response_item', JSON.stringify({ timestamp: at(8), type: 'response_item', payload: 'PAYLOADWORD' })],
    ['response_item', JSON.stringify({ timestamp: at(9), type: 'response_item', payload: null })],
  ]);
  expect(session.counts.unknownRecords).toBe(3);
});
