/**
 * A search hit's time: ISO UTC to the millisecond, as `sessions --json` and every other time AgentDash gives, not the
 * transcript's text (an offset, no milliseconds), which no reader can compare with the others as text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-ts-'));
const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it("gives a hit's time as ISO UTC whatever offset or precision the transcript wrote", async () => {
  const session = nextSessionId();
  const base = (uuid: string, parentUuid: string | null, timestamp: string) => ({
    sessionId: session,
    uuid,
    parentUuid,
    timestamp,
  });
  writeLines(join(dir, 'projects', 'p', `${session}.jsonl`), [
    prompt(base('u1', null, '2026-04-01T10:00:00+02:00'), 'find the zircon lamp'),
    assistantText(base('a1', 'u1', '2026-04-01T08:00:05Z'), 'msg_1', 'the zircon lamp is lit'),
  ]);
  await index.refresh([dir]);
  const hits = await index.search('zircon');
  expect(hits.map((h) => [h.kind, h.timestamp]).sort()).toEqual([
    ['assistant', '2026-04-01T08:00:05.000Z'],
    ['prompt', '2026-04-01T08:00:00.000Z'],
  ]);
  const [listed] = index.listSessions();
  expect(listed?.startedAt).toBe('2026-04-01T08:00:00.000Z');
});
