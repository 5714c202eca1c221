/**
 * Usage counts a response several sessions hold once (a resumed session's copies), by its key: an id unique only
 * within its session (Gemini's, which some writers make `m1`, `m2`…) is scoped by it, so two unrelated sessions that
 * both hold one never lose a response to each other (core's `responseKeyOf`).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const wildGemini = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../shared/wild-agents/gemini/agent-sessions-fixture-1',
);

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-response-keys-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A Gemini 0.20 document: a prompt (`m1`) and one answer (`m2`) with these input and output tokens. */
function geminiSession(project: string, id: string, minute: number, input: number, output: number): void {
  const at = (second: number) => `2026-01-16T18:${minute}:0${second}.000Z`;
  const chats = join(dir, '.gemini', 'tmp', project, 'chats');
  mkdirSync(chats, { recursive: true });
  const document = {
    sessionId: id,
    projectHash: project,
    startTime: at(0),
    lastUpdated: at(3),
    messages: [
      { id: 'm1', timestamp: at(1), type: 'user', content: 'Hello' },
      {
        id: 'm2',
        timestamp: at(2),
        type: 'gemini',
        model: 'gemini-3-flash-preview',
        tokens: { input, output, total: input + output, thoughts: 0, tool: 0, cached: 0 },
        content: 'Hi!',
      },
    ],
  };
  writeFileSync(join(chats, `session-2026-01-16T18-${minute}-${id.slice(0, 8)}.json`), JSON.stringify(document));
}

/** Input and output tokens of the responses `usage` counts, per session id. */
function tokensBySession(i: AgentIndex): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const r of i.usageResponses({})) {
    const [input, output] = out[r.context.sessionId] ?? [0, 0];
    out[r.context.sessionId] = [input + r.tokens.inputTokens, output + r.tokens.outputTokens];
  }
  return out;
}

describe('response keys across sessions', () => {
  it('two unrelated Gemini sessions holding one message id each keep their own response', async () => {
    geminiSession('alpha', 'aaaaaaaa-0000-4000-8000-000000000001', 34, 10, 5);
    geminiSession('beta', 'bbbbbbbb-0000-4000-8000-000000000002', 47, 100, 10);
    await index.refresh([join(dir, '.gemini')]);
    // Before: keyed by the message id alone, the later session's `m2` went to the earlier one (10 + 5 tokens counted).
    expect(tokensBySession(index)).toEqual({
      'aaaaaaaa-0000-4000-8000-000000000001': [10, 5],
      'bbbbbbbb-0000-4000-8000-000000000002': [100, 10],
    });
  });

  const title = existsSync(wildGemini)
    ? 'wild Gemini: the two sessions that both name their answer m2 are each counted'
    : 'wild Gemini: the two sessions that both name their answer m2 are each counted (skipped: ../shared/wild-agents is not present)';
  it.skipIf(!existsSync(wildGemini))(title, async () => {
    await index.refresh([wildGemini]);
    expect(tokensBySession(index)).toEqual({
      'session-2025-12-16T23-47-b4f17607': [100, 10],
      'session-2026-01-16T18-34-3739ef95': [10, 5],
      gemini_stage0_jsonl: [11_855 + 12_069 - 11_502, 81 + 147],
    });
  });
});
