import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFixtures } from '../../../test/helpers.js';
import { discoverCodexFiles } from './discover.js';

const fork = join(codexFixtures, 'fork');

describe('discoverCodexFiles', () => {
  it('takes a known session id instead of reading the first line, and reads it otherwise', async () => {
    const read = await discoverCodexFiles([fork]);
    const roles = read.files.map((f) => [f.role, f.sessionId, f.agentId]);
    expect(roles.filter(([role]) => role === 'subagent')).toHaveLength(1);

    // What an index knows from an earlier read gives the same files.
    const known = new Map(read.files.map((f) => [f.path, f.sessionId]));
    const asked: string[] = [];
    const again = await discoverCodexFiles([fork], {
      knownSessionId: (path) => {
        asked.push(path);
        return known.get(path);
      },
    });
    expect(again.files.map((f) => [f.role, f.sessionId, f.agentId])).toEqual(roles);
    expect(asked).toHaveLength(read.files.length);

    // The known id is taken as it is: a rollout under another session's id is that session's subagent file.
    const [first] = read.files;
    const moved = await discoverCodexFiles([fork], {
      knownSessionId: (path) => (path === first?.path ? 'another-session' : known.get(path)),
    });
    expect(moved.files.find((f) => f.path === first?.path)).toMatchObject({
      role: 'subagent',
      sessionId: 'another-session',
    });
  });
});
