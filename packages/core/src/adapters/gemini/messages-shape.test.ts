/**
 * A Gemini session document whose `messages` is no list (a string, an object) was read as a session of no messages,
 * with no issue and the field dropped from its header (a review). It is kept whole and shown as a record of its own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { groupSessions } from '../../io/discover.js';
import { loadSession } from '../../session/load-session.js';
import { home020 } from './test-helpers.js';

const documentPath =
  'tmp/6c8e5834e9089896c09e0efc10c518ca552d8e8c9fabe86bf4531e7dbfdb5d42/chats/session-2026-11-23T00-27-ae75b182.json';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-gemini-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.each([
  ['a string', 'MESSAGESWORD'],
  ['an object', { first: { type: 'user', content: 'MESSAGESWORD' } }],
])('keeps messages that are %s whole, as an unknown record', async (_what, messages) => {
  const doc = JSON.parse(readFileSync(join(home020, documentPath), 'utf8')) as Record<string, unknown>;
  const home = join(dir, String(_what).replace(' ', '-'), '.gemini');
  const path = join(home, documentPath);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...doc, messages }, null, 2));
  const old = new Date(Date.now() - 60_000);
  utimesSync(path, old, old);
  const [group] = groupSessions((await discoverAll([home])).files);
  const session = await loadSession(group!);
  const unknown = session.events.flatMap((e) => (e.kind === 'unknown' ? [e.record] : []));
  expect(unknown.map((r) => JSON.stringify(r.raw).includes('MESSAGESWORD'))).toEqual([true]);
  expect(session.counts.unknownRecords).toBe(1);
});
