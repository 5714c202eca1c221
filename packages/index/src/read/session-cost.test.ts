import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../../core/test/fixtures');
/** Codex 0.169's session whose only request the model API refused (api-fatal), beside three versions' sessions. */
const homes = ['api-fatal', '0.50.0', '0.98.0', '0.169.0'].map((v) => join(fixtures, 'codex', v, 'codex-home'));

let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cost-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh(homes);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a session's cost", () => {
  it('is $0, not unknown, when no model answered it: its only request failed, though it names the model asked', () => {
    const all = index.listSessions({ paths: homes });
    const rejected = all.filter((s) => s.title?.startsWith('This request will be rejected.'));
    expect(rejected).toHaveLength(1);
    for (const s of rejected) {
      expect([s.prompts, s.messages, s.models.length > 0]).toEqual([1, 1, true]);
      expect([s.usage.responses, s.costUsd]).toEqual([0, 0]);
    }
    // the list sorted by cost puts them with the $0 sessions, not after the unknown ones
    const page = index.pageSessions({ paths: homes }, { sort: 'costUsd', descending: false, limit: 1000 });
    const firstUnknown = page.sessions.findIndex((s) => s.costUsd === null);
    const lastRejected = Math.max(...rejected.map((r) => page.sessions.findIndex((s) => s.key === r.key)));
    expect(lastRejected).toBeGreaterThanOrEqual(0);
    if (firstUnknown >= 0) expect(lastRejected).toBeLessThan(firstUnknown);
    expect(page.sessions.slice(0, lastRejected + 1).every((s) => s.costUsd === 0)).toBe(true);
  });

  it('stays known for the sessions a model answered, and their usage adds up', () => {
    const answered = index.listSessions({ paths: homes }).filter((s) => s.messages > s.prompts);
    expect(answered.length).toBeGreaterThan(5);
    for (const s of answered) {
      expect(s.usage.responses).toBeGreaterThan(0);
      if (s.unpricedModels.length === 0) expect(s.costUsd).toBeGreaterThan(0);
    }
  });
});
