/**
 * A headless run's output (a CI job's `codex exec --json` or Gemini stream-json artifact) indexed beside the agent's
 * transcript of the same session: the session is listed and counted once, from the transcript; the output's sessions
 * whose transcript is not indexed are listed as they are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-headless-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The sessions listed, as `<folder> <id>`, and the tokens of the responses counted, by session id. */
function counted(i: AgentIndex) {
  const sessions = i
    .listSessions({})
    .map((s) => `${basename(dirname(s.key))} ${s.id}`)
    .sort();
  const tokens: Record<string, number> = {};
  for (const r of i.usageResponses({})) {
    const id = basename(r.context.sessionKey);
    const t = r.tokens;
    tokens[id] = (tokens[id] ?? 0) + t.inputTokens + t.cacheReadInputTokens + t.outputTokens;
  }
  return { sessions, tokens };
}

const sum = (tokens: Record<string, number>) => Object.values(tokens).reduce((a, b) => a + b, 0);

/** The outputs bundled, the home holding the transcripts of some of them, and which (by id). */
const cases = [
  {
    agent: 'codex exec --json',
    outputs: join(fixtures, 'codex/exec'),
    home: join(fixtures, 'codex/0.169.0/codex-home'),
    // plan and mcp; shell, api-429 and patch have no rollout bundled.
    transcribed: ['01a205e8-1860-7872-a76e-5f45131dfda1', '01a205e8-9771-78f3-8eac-3f54806b333f'],
    // 0.169 shell's `turn.completed`: 210,541 input (cached included) and 427 output.
    total: { id: '01a205e7-bb04-77b3-b0ef-762f3438ba3c', tokens: 210_968 },
  },
  {
    agent: 'Gemini stream-json',
    outputs: join(fixtures, 'gemini/stream-json'),
    home: join(fixtures, 'gemini/0.61.0/.gemini'),
    // 0.61 shell and thoughts; the 0.20 runs' sessions are not in this home.
    transcribed: ['a31c3af3-d939-43b2-bdbe-0581323717b9', 'c3094d53-ab8e-46b4-840d-ba43d5979d99'],
    // 0.61 shell's `result.stats.total_tokens` over its two models (1,427 + 85,048): both models' usage is stored.
    total: { id: 'c3094d53-ab8e-46b4-840d-ba43d5979d99', tokens: 86_475 },
  },
];

describe('headless output beside the transcript of the same session', () => {
  it.each(cases)('$agent: its usage is stored whole, and it loses to the transcript, in either order', async (c) => {
    const alone = async (path: string, name: string) => {
      const own = openIndex({ dbPath: join(dir, name) });
      await own.refresh([path]);
      const figures = counted(own);
      own.close();
      return figures;
    };
    const transcripts = await alone(c.home, 'transcripts.sqlite');
    const outputs = await alone(c.outputs, 'outputs.sqlite');
    expect(outputs.tokens[c.total.id]).toBe(c.total.tokens);
    const ids = (sessions: readonly string[]) => sessions.map((s) => s.slice(s.indexOf(' ') + 1));
    expect(ids(outputs.sessions).filter((id) => ids(transcripts.sessions).includes(id))).toEqual(c.transcribed);
    const untranscribed = outputs.sessions.filter((s) => !c.transcribed.some((id) => s.endsWith(id)));
    const untranscribedTokens = Object.fromEntries(
      Object.entries(outputs.tokens).filter(([id]) => !c.transcribed.includes(id)),
    );

    await index.refresh([c.outputs]);
    await index.refresh([c.home]);
    const both = counted(index);
    // Before: the transcribed sessions listed twice, their outputs' usage added to their transcripts'.
    expect(both.sessions).toEqual([...untranscribed, ...transcripts.sessions].sort());
    expect(both.tokens).toEqual({ ...transcripts.tokens, ...untranscribedTokens });
    expect(sum(both.tokens)).toBe(sum(transcripts.tokens) + sum(untranscribedTokens));
    // A transcript's reference stays its id beside its output's session, and that id opens the transcript's.
    expect(c.transcribed.length).toBeGreaterThan(0);
    for (const id of c.transcribed) {
      const listed = index.listSessions({}).find((s) => s.id === id);
      expect([listed?.ref, index.getSession(id)?.key]).toEqual([id, listed?.key]);
    }

    const reversed = openIndex({ dbPath: join(dir, 'reversed.sqlite') });
    await reversed.refresh([c.home]);
    await reversed.refresh([c.outputs]);
    expect(counted(reversed)).toEqual(both);
    reversed.close();
  });
});
