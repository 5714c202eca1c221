import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';

/**
 * A 0.36 rollout as ../shared/wild-agents cpolar-connect-1 wrote one: a turn whose reasoning and reply the client wrote
 * as events, then aborted before it wrote them as response items; the next turn's reply written both ways.
 */
function abortedTurn(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-event-words-')), 'sessions/2025/09/16');
  mkdirSync(dir, { recursive: true });
  const id = '613a9a68-8816-40b2-a2d4-041ade599da7';
  let s = 0;
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: `2025-09-16T14:12:${String(s++).padStart(2, '0')}.000Z`, type, payload });
  const prompt = (text: string) =>
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const file = join(dir, `rollout-2025-09-16T14-12-31-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line('session_meta', { id, timestamp: '2025-09-16T14:12:00.000Z', cwd: '/repo', cli_version: '0.36.0' }),
      line('turn_context', { cwd: '/repo', model: 'gpt-5-codex' }),
      prompt('Fix the tunnel.'),
      line('event_msg', { type: 'agent_reasoning', text: '**Checking the config**' }),
      line('event_msg', { type: 'agent_message', message: 'The port is wrong; changing it now.' }),
      line('event_msg', { type: 'agent_reasoning', text: '**Saving the file**' }),
      line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
      // 0.40 (agentcmd-1): an aborted turn's item may follow its abort, repeating an event's words
      line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Saving the file**' }] }),
      // 0.50: the client's own notice after a compaction is no word of the agent's
      line('compacted', { message: 'Summary of the work so far.' }),
      line('event_msg', { type: 'agent_message', message: 'Compact task completed' }),
      line('turn_context', { cwd: '/repo', model: 'gpt-5-codex' }),
      prompt('Go on.'),
      line('event_msg', { type: 'agent_message', message: 'Done.' }),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }),
    ].join('\n')}\n`,
  );
  return file;
}

describe('words Codex wrote only as events', () => {
  // Before: the aborted turn's reasoning and reply were kept as bookkeeping only, in no timeline, search or export.
  it('are the agent’s, where a turn ended without the response items that repeat them (an aborted turn)', async () => {
    const [group] = groupSessions((await discoverAll([abortedTurn()])).files);
    if (group === undefined) throw new Error('no session');
    const session = await loadSession(group);
    const said = session.events.flatMap((e) =>
      e.kind === 'assistant'
        ? e.items.map((i) =>
            i.kind === 'text' ? `text:${i.text}` : i.kind === 'thinking' ? `thinking:${i.thinking}` : i.kind,
          )
        : e.kind === 'prompt'
          ? [`prompt:${e.text}`]
          : [],
    );
    expect(said).toEqual([
      'prompt:Fix the tunnel.',
      'thinking:**Checking the config**',
      'text:The port is wrong; changing it now.',
      'thinking:**Saving the file**',
      'prompt:Go on.',
      'text:Done.',
    ]);
  });
});
