/**
 * A message whose content is not the shape its client usually writes lost it without a word (a review): a Codex
 * message whose content was one object or held strings, a Gemini message whose content was one part (Gemini's API
 * allows a part alone) or a number, a Copilot message whose content was no string, a Copilot tool request without
 * its call id. Each is kept now: a text as the prompt's or answer's text, anything else raw beside it.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RolloutLine, writeRollout } from '@agentdash/testing/codex-rollout';
import { afterAll, describe, expect, it } from 'vitest';
import { groupSessions } from '../io/discover.js';
import type { Session } from '../model/session.js';
import { loadSession } from '../session/load-session.js';
import { discoverAll } from './discover-all.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-content-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sessionOf(home: string): Promise<Session> {
  const [group] = groupSessions((await discoverAll([home])).files);
  return loadSession(group!);
}

/** What the timeline shows of each prompt and answer: its text and the kinds of what else it kept. */
function shown(session: Session): string[] {
  return session.events.flatMap((e) => {
    if (e.kind === 'prompt') return [`prompt ${JSON.stringify(e.text)} ${JSON.stringify(e.others ?? [])}`];
    if (e.kind !== 'assistant') return [];
    return [`answer ${JSON.stringify(e.items)}`];
  });
}

const old = (path: string) => utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

describe('content of another shape is kept', () => {
  it('Codex: a message whose content is one part, or holds a string and a number', async () => {
    const home = join(dir, 'codex');
    const lines: RolloutLine[] = [
      [1, 'response_item', { type: 'message', role: 'user', content: { type: 'input_text', text: 'ONEPART' } }],
      [2, 'response_item', { type: 'message', role: 'assistant', content: ['STRINGPART', 7] }],
      [3, 'response_item', { type: 'message', role: 'user', content: 42 }],
    ];
    old(writeRollout(home, '019f0000-0000-7000-8000-00000000c0de', lines));
    expect(shown(await sessionOf(home))).toEqual([
      'prompt "ONEPART" []',
      'answer [{"kind":"text","text":"STRINGPART"},{"kind":"other-block","block":{"kind":"unknown","type":"number","raw":7}}]',
      'prompt "" [{"kind":"unknown","type":"number","raw":42}]',
    ]);
  });

  it('Gemini: a message whose content is one part, or a number, or holds a part of no text', async () => {
    const home = join(dir, 'gemini', '.gemini');
    const chats = join(home, 'tmp', 'a'.repeat(64), 'chats');
    mkdirSync(chats, { recursive: true });
    const at = (s: number) => `2026-11-23T00:00:0${s}.000Z`;
    const messages = [
      { id: 'm1', timestamp: at(1), type: 'user', content: { text: 'ONEPART' } },
      { id: 'm2', timestamp: at(2), type: 'gemini', content: [{ text: 'TEXT' }, { executableCode: { code: 'x' } }] },
      { id: 'm3', timestamp: at(3), type: 'user', content: 42 },
      { id: 'm4', timestamp: at(4), type: 'gemini', content: { text: 'ONEANSWER' } },
    ];
    const doc = { sessionId: 'gemini-shapes', projectHash: 'a'.repeat(64), startTime: at(0), lastUpdated: at(4) };
    const path = join(chats, 'session-2026-11-23T00-00-gemini-shapes.json');
    writeFileSync(path, JSON.stringify({ ...doc, messages }));
    old(path);
    expect(shown(await sessionOf(home))).toEqual([
      'prompt "ONEPART" []',
      'answer [{"kind":"text","text":"TEXT"},{"kind":"other-block","block":{"kind":"unknown","type":"executableCode","raw":{"executableCode":{"code":"x"}}}}]',
      'prompt "" [{"kind":"unknown","type":"number","raw":42}]',
      'answer [{"kind":"text","text":"ONEANSWER"}]',
    ]);
  });

  it('Copilot: content that is no string (a list of strings is text), a tool request without its call id', async () => {
    const home = join(dir, 'copilot', '.copilot');
    const id = '7c0b1107-0000-4000-8000-000000000001';
    const folder = join(home, 'session-state', id);
    mkdirSync(folder, { recursive: true });
    const at = (s: number) => `2026-11-23T00:00:0${s}.000Z`;
    const event = (n: number, type: string, data: unknown) => ({ type, data, id: `e${n}`, timestamp: at(n) });
    const start = { sessionId: id, copilotVersion: '1.0.102', startTime: at(0), context: { cwd: '/home/user/p' } };
    const events = [
      event(0, 'session.start', start),
      event(1, 'user.message', { content: { parts: ['OBJECTPROMPT'] } }),
      event(2, 'assistant.message', {
        messageId: 'a1',
        model: 'gpt-4.1',
        content: ['LISTANSWER'],
        toolRequests: [{ name: 'bash', arguments: { command: 'ls' } }],
      }),
    ];
    const path = join(folder, 'events.jsonl');
    writeFileSync(path, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    old(path);
    expect(shown(await sessionOf(home))).toEqual([
      'prompt "" [{"kind":"unknown","type":"user content","raw":{"parts":["OBJECTPROMPT"]}}]',
      'answer [{"kind":"text","text":"LISTANSWER"},' +
        '{"kind":"other-block","block":{"kind":"unknown","type":"tool request without toolCallId",' +
        '"raw":{"name":"bash","arguments":{"command":"ls"}}}}]',
    ]);
  });
});
