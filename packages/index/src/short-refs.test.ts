import { join } from 'node:path';
import { shortRefs } from '@agentdash/core/present';
import { toolUse, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import type { AgentIndex } from './index.js';

const t = useTempIndex();

/** A session of one prompt and one call, in a project folder of a Claude home. */
function writeSession(home: string, folder: string, id: string): void {
  const cwd = `/home/ann/work/${folder}`;
  writeLines(join(home, 'projects', folder, `${id}.jsonl`), [
    JSON.stringify({
      type: 'user',
      uuid: `u-${folder}-${id}`,
      parentUuid: null,
      sessionId: id,
      cwd,
      timestamp: '2026-01-02T10:00:00.000Z',
      message: { role: 'user', content: `work in ${folder}` },
    }),
    toolUse(
      { sessionId: id, timestamp: '2026-01-02T10:00:01.000Z', uuid: `a-${folder}-${id}` },
      `m-${folder}-${id}`,
      `toolu_${folder}_${id.slice(0, 8)}`,
      'Bash',
      { command: 'ls' },
    ),
  ]);
}

/** The key of the session a reference names, or why it names none. */
function keyOf(index: AgentIndex, ref: string): string {
  try {
    return index.getSession(ref)?.key ?? 'no session';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the short references a session list prints', () => {
  it('each names its own session, also for an id two project folders or two homes hold', async () => {
    // Folder names no temporary folder's path holds (`home` would be on /home/ann/tmp's).
    const home = join(t.dir, 'laptop-home');
    const copy = join(t.dir, 'laptop-copy');
    // One id in two project folders whose names start alike (`<id>@-home-ann-work-api` would be cut inside them).
    const shared = '0a1b2c3d-1111-4000-8000-000000000001';
    writeSession(home, '-home-ann-work-api-server', shared);
    writeSession(home, '-home-ann-work-app-client', shared);
    // An id that shares its first 10 characters with that one, so that prefixes are longer than 8.
    writeSession(home, '-home-ann-work-api-server', '0a1b2c3d-1122-4000-8000-000000000002');
    // One id in a project folder of the same name in two homes: named by its key.
    const twice = '7e8f9a0b-2222-4000-8000-000000000003';
    writeSession(home, '-home-ann-work-api-server', twice);
    writeSession(copy, '-home-ann-work-api-server', twice);
    // A long id that is no UUID, in two folders: shown cut, with an ellipsis, before its folder.
    writeSession(home, '-home-ann-work-api-server', 'a-session-named-after-a-very-long-file');
    writeSession(home, '-home-ann-work-app-client', 'a-session-named-after-a-very-long-file');
    // An id that holds an `@`, long enough to be cut were it split there.
    writeSession(home, '-home-ann-work-api-server', 'some-long-name-with-version@1.2.3-beta-long');
    // One id in three places: the same folder of two homes (one home named like a project folder of the other), and
    // that folder: `<id>@b` names the folder `b`, never the home `b`.
    const three = 'cd11f12b-b0ad-4540-90e3-b4254028db1f';
    const b = join(t.dir, 'b');
    writeSession(home, '-p', three);
    writeSession(b, '-p', three);
    writeSession(home, 'b', three);
    await t.index.refresh([home, copy, b]);
    const sessions = t.index.listSessions({ paths: [home, copy, b] });
    expect(sessions).toHaveLength(11);
    const short = shortRefs(sessions.map((s) => s.ref));
    const printed = sessions.map((s) => short.get(s.ref) ?? s.ref);
    expect(printed.map((ref) => [ref, keyOf(t.index, ref)])).toEqual(sessions.map((s, i) => [printed[i], s.key]));
    expect(new Set(printed).size).toBe(sessions.length);
    // a key by the trailing part of its folder's path that tells it apart, not a whole path
    expect(printed.filter((ref) => ref.includes('7e8f9a0b')).sort()).toEqual([
      'laptop-copy/…/7e8f9a0b',
      'laptop-home/…/7e8f9a0b',
    ]);
    expect(printed.filter((ref) => ref.includes('cd11f12b')).sort()).toEqual([
      'b/projects/-p/cd11f12b',
      'cd11f12b@b',
      'laptop-home/projects/-p/cd11f12b',
    ]);
  });
});
