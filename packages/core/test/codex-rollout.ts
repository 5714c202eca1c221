/** Codex rollouts written by a test, one file per test, loaded as a home's are. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { discoverAll } from '../src/agents/discover-all.js';
import { loadSession } from '../src/index.js';
import { groupSessions } from '../src/io/discover.js';
import type { Session } from '../src/model/session.js';

/** One line of a rollout. */
export const rolloutLine = (timestamp: string, type: string, payload: unknown): string =>
  JSON.stringify({ timestamp, type, payload });

/**
 * The first lines of a Codex Desktop 0.145 rollout, as ../shared/wild-agents writes them (entire-graph-6, lines 1
 * and 8), and the person's prompt.
 */
export function desktopRolloutHead(id: string, prompt: string): string[] {
  return [
    rolloutLine('2026-07-20T19:07:49.897Z', 'session_meta', {
      id,
      timestamp: '2026-07-20T19:07:49.581Z',
      cwd: '/p/entire-graph',
      originator: 'Codex Desktop',
      cli_version: '0.145.0-alpha.18',
    }),
    rolloutLine('2026-07-20T19:07:51.180Z', 'turn_context', { cwd: '/p/entire-graph', model: 'gpt-5.6' }),
    rolloutLine('2026-07-20T19:07:51.200Z', 'response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: prompt }],
    }),
  ];
}

/**
 * For the tests of a file: the session of the rollout of session `id` a test writes (its text), in a temporary
 * home removed after the test.
 */
export function rolloutSessions(id: string): (text: string) => Promise<Session> {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return async (text) => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-rollout-'));
    const sessions = join(dir, 'sessions/2026/07/20');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, `rollout-2026-07-20T21-07-49-${id}.jsonl`), text);
    const { files } = await discoverAll([dir]);
    const [group] = groupSessions(files);
    if (group === undefined) throw new Error('the rollout made no session');
    return loadSession(group);
  };
}
