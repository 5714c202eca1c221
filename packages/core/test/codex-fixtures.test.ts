import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexAdapter } from '../src/adapters/codex/adapter.js';
import { discoverAll, groupSessions } from '../src/index.js';
import type { Session } from '../src/model/session.js';
import { loadSession } from '../src/session/load-session.js';
import { repoRoot } from './helpers.js';

const fixtures = resolve(repoRoot, 'packages/core/test/fixtures/codex');

async function sessionsUnder(path: string): Promise<Session[]> {
  const { files } = await discoverAll([path]);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

describe('Codex legacy rollouts (Aug 2025, before session_meta)', () => {
  test('a bare header, bare items without timestamps: prompt, reasoning text and calls, no tokens', async () => {
    const sessions = await sessionsUnder(join(fixtures, 'legacy'));
    const full = sessions.find((s) => s.id === 'f532f754-e9fd-4a54-b7f6-4ffc0f1dddd4');
    const headerOnly = sessions.find((s) => s.id === '3cf49b45-003a-44d0-a6b7-498a5a35c810');
    expect(sessions.map((s) => s.agent)).toEqual(['codex', 'codex']);
    expect(headerOnly?.events.filter((e) => e.kind === 'prompt')).toEqual([]);
    expect(full?.events.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text : ''))).toEqual([
      'search web for googles latest worlds model',
    ]);
    expect(full?.usageByModel).toEqual({});
    expect(full?.issues).toEqual([]);
    expect(full?.calls.every((c) => c.status === 'ok')).toBe(true);
  });

  test("the project is the folder the first prompt's <environment_context> names (the header names none)", async () => {
    const sessions = await sessionsUnder(join(fixtures, 'legacy'));
    const full = sessions.find((s) => s.id === 'f532f754-e9fd-4a54-b7f6-4ffc0f1dddd4');
    const headerOnly = sessions.find((s) => s.id === '3cf49b45-003a-44d0-a6b7-498a5a35c810');
    expect(full?.projectPath).toBe('/Users/kobra/Documents');
    expect(headerOnly?.projectPath).toBeUndefined();
  });
});

describe('Codex spawned agents (0.118 fork: the child begins with a copy of the parent history)', () => {
  test('the child file is a subagent of its parent session, linked by the spawn call, its copied prefix cut', async () => {
    const [session, ...others] = await sessionsUnder(join(fixtures, 'fork'));
    expect(others).toEqual([]);
    expect(session?.id).toBe('019d7d08-46c9-7f73-affe-4e6ca9852d56');
    const child = session?.subagents.find((s) => s.agentId === '019d7e2f-0041-7310-951c-94020254dfc9');
    const spawn = session?.calls.find((c) => c.name === 'spawn_agent' && c.agentId === undefined);
    expect({ linkedBy: child?.linkedBy, parentCallId: child?.parentCallId }).toEqual({
      linkedBy: 'agent-id',
      parentCallId: spawn?.id,
    });
    // The child's own first prompt is its task, not the parent's history.
    expect(child?.prompt?.startsWith('Review docs/rewrite-issue-list.md')).toBe(true);
    // The copy's spawn_agent call and its synthetic output are not the child's.
    expect(session?.calls.filter((c) => c.name === 'spawn_agent').length).toBe(1);
  });

  test("the child's first token event repeats the parent's total and is not counted again", async () => {
    const [session] = await sessionsUnder(join(fixtures, 'fork'));
    const childFile = session?.files.find((f) => f.role === 'subagent')?.path ?? '';
    const usages: number[] = [];
    await codexAdapter.streamRecords(
      {
        path: childFile,
        agent: 'codex',
        projectDir: '',
        role: 'subagent',
        sessionId: undefined,
        agentId: undefined,
        metaPath: undefined,
        size: 0,
        mtimeMs: 0,
        ino: 0,
      },
      (event) => {
        if (event.kind === 'record' && event.record.kind === 'assistant' && event.record.usage) {
          usages.push(event.record.usage.inputTokens + event.record.usage.cacheReadInputTokens);
        }
      },
      {},
    );
    // Every counted response is the child's own: none carries the parent's last response (133,627 input tokens).
    expect(usages.length).toBeGreaterThan(0);
    expect(usages.includes(133_627)).toBe(false);
  });

  test("a child found without its parent's file names the session and its folder, not a Claude file name", async () => {
    const home = mkdtempSync(join(tmpdir(), 'agentdash-codex-orphan-'));
    try {
      const day = join(home, 'sessions', '2026', '04', '11');
      mkdirSync(day, { recursive: true });
      const child = 'rollout-2026-04-11T22-15-02-019d7e2f-0041-7310-951c-94020254dfc9.jsonl';
      copyFileSync(join(fixtures, 'fork', 'sessions', '2026', '04', '11', child), join(day, child));
      const [session, ...others] = await sessionsUnder(home);
      expect(others).toEqual([]);
      expect(session?.issues.filter((i) => i.code === 'missing_main_file')).toEqual([
        {
          code: 'missing_main_file',
          file: join(home, 'sessions'),
          line: 0,
          message: `the main transcript of session ${session?.id} is missing; showing its 1 subagent file(s)`,
        },
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('Codex reading resumes from a byte offset exactly as a whole read', () => {
  test('records emitted for the new lines are the ones a whole read emits for them', async () => {
    const file = join(fixtures, '0.98.0/codex-home/sessions/2026/11/23');
    const { files } = await codexAdapter.discover(file);
    for (const discovered of files) {
      const whole: string[] = [];
      const end = await codexAdapter.streamRecords(
        discovered,
        (e) => {
          if (e.kind === 'record') whole.push(JSON.stringify(e.record));
        },
        {},
      );
      const half = Math.floor(end.nextOffset / 2);
      // The offset of the first line that starts at or after the middle.
      const offsets: number[] = [];
      await codexAdapter.streamRecords(
        discovered,
        (e) => {
          if (e.kind === 'record') offsets.push(e.record.loc.offset);
        },
        {},
      );
      const from = offsets.find((o) => o >= half) ?? end.nextOffset;
      const tail: string[] = [];
      await codexAdapter.streamRecords(
        discovered,
        (e) => {
          if (e.kind === 'record') tail.push(JSON.stringify(e.record));
        },
        { startOffset: from, startLine: 1 },
      );
      expect(tail).toEqual(whole.filter((r) => (JSON.parse(r) as { loc: { offset: number } }).loc.offset >= from));
    }
  });
});
