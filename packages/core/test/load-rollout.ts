/** Codex tests' one way to a session: a rollout of `lines` in a fresh home, loaded as the pipeline loads it. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RolloutLine, writeRollout } from '@agentdash/testing/codex-rollout';
import { discoverAll } from '../src/agents/discover-all.js';
import { loadSession } from '../src/index.js';
import { groupSessions } from '../src/io/discover.js';
import type { Session } from '../src/model/session.js';

/** The session of rollout `id` (Codex `version`) holding `lines`: discovered, grouped and loaded. */
export async function loadRollout(id: string, lines: readonly RolloutLine[], version?: string): Promise<Session> {
  const file = writeRollout(mkdtempSync(join(tmpdir(), 'codex-test-')), id, lines, version);
  const [group] = groupSessions((await discoverAll([file])).files);
  if (group === undefined) throw new Error(`no session in ${file}`);
  return loadSession(group);
}
