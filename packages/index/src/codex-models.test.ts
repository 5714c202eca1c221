/** The models a Codex session lists: the one its turns asked for, even when no request was answered. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus-agents/codex');
/** Each version's api-fatal run: a 400 answers its one request (0.169 writes `task_complete.error`, older ones end). */
const fatal = [
  ['0.50.0', 'rollout-2026-11-23T01-07-35-01a205f1-b0f2-7170-a674-e63632f6d8d8.jsonl', 'gpt-5-codex'],
  ['0.98.0', 'rollout-2026-11-23T00-59-22-01a205ea-2a73-7850-a250-a5fd87b2150c.jsonl', 'gpt-5-codex'],
  ['0.169.0', 'rollout-2026-11-23T00-57-30-01a205e8-784d-76a2-9723-2a2922b68e56.jsonl', 'gpt-5.5'],
] as const;

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-models-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(corpus))('Codex models in the index (skipped without ../shared/corpus-agents)', () => {
  it.each(fatal)(
    '%s: a session whose only request failed lists the model it asked for',
    async (version, file, model) => {
      await index.refresh([join(corpus, version, 'codex-home/sessions/2026/11/23', file)]);
      // Was []: only a response's usage named a model.
      expect(index.listSessions({}).map((s) => [s.agent, s.models, s.usage.responses])).toEqual([
        ['codex', [model], 0],
      ]);
    },
  );
});
