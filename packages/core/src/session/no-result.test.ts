import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFixtures, samplesHome } from '../../test/helpers.js';
import { discoverAll } from '../agents/discover-all.js';
import { discoverFiles, groupSessions } from '../io/discover.js';
import type { Session } from '../model/session.js';
import { loadSession } from './load-session.js';

async function sessionOf(file: string, live = false): Promise<Session> {
  const { files } = await discoverAll([file]);
  const [group] = groupSessions(files);
  if (group === undefined) throw new Error(`no session in ${file}`);
  return loadSession(group, { live });
}

/** Each call without a result as `name status noResult`. */
const withoutResult = (session: Session) =>
  session.calls.filter((c) => c.result === undefined).map((c) => [c.name, c.status, c.noResult ?? '-'].join(' '));

/** An assistant record holding one Claude Code tool call and nothing else. */
const claudeCall = (id: string, uuid: string) =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    parentUuid: null,
    message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: {} }] },
  });

describe('a call without a result says why', () => {
  // Before: every such call was only `unanswered`, shown as "the conversation went on without one".
  it('Codex 0.169 killed by SIGKILL mid-tool: the session ends before its result', async () => {
    const file = join(
      codexFixtures,
      '0.169.0/codex-home/sessions/2026/11/23/rollout-2026-11-23T00-57-59-01a205e8-e6b1-74d1-8029-f7a93adf23eb.jsonl',
    );
    expect(withoutResult(await sessionOf(file))).toEqual(['exec_command unanswered session-ended']);
    expect(withoutResult(await sessionOf(file, true))).toEqual(['exec_command pending -']);
  });

  it('Claude Code: went on without one in the middle, the session ends before one at the end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-no-result-'));
    try {
      const source = join(samplesHome, 'projects/-home-user-proj-shell/f0835e0b-b4c6-4910-817c-346fd7332302.jsonl');
      const lines = (await readFile(source, 'utf8')).split('\n').filter((l) => l.trim() !== '');
      const file = join(dir, 'session.jsonl');
      const mid = Math.floor(lines.length / 2);
      const all = [
        ...lines.slice(0, mid),
        claudeCall('toolu_mid', 'mid-1'),
        ...lines.slice(mid),
        claudeCall('toolu_tail', 'tail-1'),
      ];
      await writeFile(file, `${all.join('\n')}\n`);
      const group = groupSessions((await discoverFiles([file])).files)[0];
      if (!group) throw new Error('no session');
      expect(withoutResult(await loadSession(group, { live: false }))).toEqual([
        'Bash unanswered conversation-went-on',
        'Bash unanswered session-ended',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
