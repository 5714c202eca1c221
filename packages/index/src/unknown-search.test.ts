/**
 * A record of a kind AgentDash does not know is kept raw, counted and shown in the timeline (its JSON): search finds
 * it too, as it reads there. It was shown but never searched (a review helper: marker words appended to a Codex, a
 * Gemini and a Copilot session were in `unknownRecords` and the timeline, and no search found them).
 */
import { appendFileSync, cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { copySamplesHome } from '../test/temp-home.js';
import { type AgentIndex, openIndex } from './index.js';

const CODEX = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/codex/0.169.0/codex-home');
const FIRST = '1a27cc4c-c7a3-4773-8c08-9943d0a1ff88';

let dir: string;
let home: string;
let index: AgentIndex;
beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-unknown-search-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it('finds a Claude Code record and a Codex event of kinds it does not know, by the words of their JSON', async () => {
  const claude = join(home, 'projects', '-home-user-proj-api', `${FIRST}.jsonl`);
  appendFileSync(
    claude,
    `${JSON.stringify({
      type: 'x-future-record',
      sessionId: FIRST,
      timestamp: '2026-01-02T10:09:00.000Z',
      detail: { words: 'zzqqclaude appears nowhere else' },
    })}\n`,
  );
  const codex = join(dir, 'codex-home');
  cpSync(CODEX, codex, { recursive: true });
  const day = join(codex, 'sessions/2026/11/23');
  const rollout = join(day, readdirSync(day).sort()[0] ?? '');
  appendFileSync(
    rollout,
    `${JSON.stringify({ timestamp: '2026-11-23T01:30:00.000Z', type: 'event_msg', payload: { type: 'weird_event', msg: 'zzqqcodex arrives' } })}\n`,
  );
  await index.refresh([home, codex]);
  const found = async (word: string) =>
    (await index.search(word)).map((h) => ({ kind: h.kind, file: h.file, marked: h.snippet.includes(word) }));
  expect(await found('zzqqclaude')).toEqual([{ kind: 'note', file: claude, marked: true }]);
  expect(await found('zzqqcodex')).toEqual([{ kind: 'note', file: rollout, marked: true }]);
  // still counted as unknown records, with their issues
  expect(
    index
      .issues()
      .filter((i) => i.code === 'unknown_record')
      .map((i) => i.file),
  ).toEqual(expect.arrayContaining([claude, rollout]));
});
