import { appendFile, chmod, cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveEvents, isRelevantChange } from './live.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-live-folders-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('live: folder removals and moves are noticed like file changes', () => {
  it('counts folders (names without a dot) as relevant, not editor temp files', () => {
    expect(
      ['-home-user-proj-api', 'a.jsonl', 'agent-x.meta.json', '4da1eb3d-852a-4da6-8e3f-0bacc4f73990', 'x.swp'].map(
        isRelevantChange,
      ),
    ).toEqual([true, true, true, true, false]);
  });

  it.each([
    ['rm -rf', (dir: string) => rm(dir, { recursive: true, force: true })],
    ['mv out of the home', (dir: string) => rename(dir, join(tmp, `moved-${Date.now()}`))],
  ])('%s of a project folder drops its sessions when archiving is off', async (_name, remove) => {
    const home = join(tmp, `home-${Date.now()}`);
    for (const project of ['-home-user-proj-api', '-home-user-proj-web']) {
      await cp(join(samples, 'projects', project), join(home, 'projects', project), { recursive: true });
    }
    const index = openIndex({ dbPath: join(home, '..', `${Date.now()}.sqlite`) });
    index.setArchiving(false);
    try {
      await index.refresh([home]);
      const before = index.listSessions({ paths: [home] }).length;
      const events = createLiveEvents({ index, paths: [home], debounceMs: 50 });
      const api = index.listSessions({ project: 'proj/api' }).length;
      expect(api).toBeGreaterThan(0);
      const changed = new Promise<void>((done) =>
        events.subscribe((m) => {
          if (m.type === 'sessions-changed' && index.listSessions({ paths: [home] }).length < before) done();
        }),
      );
      await remove(join(home, 'projects', '-home-user-proj-api'));
      await Promise.race([
        changed,
        new Promise((_, fail) => setTimeout(() => fail(new Error('the removal was not noticed')), 10_000)),
      ]);
      events.close();
      expect(index.listSessions({ paths: [home] }).length).toBe(before - api);
    } finally {
      index.close();
    }
  });

  it('rm -rf of a project folder marks its sessions archived (kept from the archive), and says so live', async () => {
    const home = join(tmp, `home-archived-${Date.now()}`);
    for (const project of ['-home-user-proj-api', '-home-user-proj-web']) {
      await cp(join(samples, 'projects', project), join(home, 'projects', project), { recursive: true });
    }
    const index = openIndex({ dbPath: join(home, '..', `archived-${Date.now()}.sqlite`) });
    try {
      await index.refresh([home]);
      const before = index.listSessions({ paths: [home] }).map((s) => s.id);
      const api = index.listSessions({ project: 'proj/api' }).map((s) => s.id);
      const events = createLiveEvents({ index, paths: [home], debounceMs: 50 });
      const archived = () =>
        index
          .listSessions({ paths: [home] })
          .filter((s) => s.archived)
          .map((s) => s.id);
      const changed = new Promise<void>((done) =>
        events.subscribe((m) => {
          if (m.type === 'sessions-changed' && archived().length === api.length) done();
        }),
      );
      await rm(join(home, 'projects', '-home-user-proj-api'), { recursive: true, force: true });
      await Promise.race([
        changed,
        new Promise((_, fail) => setTimeout(() => fail(new Error('the removal was not noticed')), 10_000)),
      ]);
      events.close();
      expect(index.listSessions({ paths: [home] }).map((s) => s.id)).toEqual(before);
      expect(archived().sort()).toEqual([...api].sort());
    } finally {
      index.close();
    }
  });
});

describe('live: a permission change is noticed like a file change', () => {
  it.skipIf(process.getuid?.() === 0)(
    'chmod 000 of a session file reports the session updated (skipped as root, who reads any file)',
    async () => {
      const home = join(tmp, 'chmod-home');
      await cp(join(samples, 'projects', '-home-user-proj-api'), join(home, 'projects', '-home-user-proj-api'), {
        recursive: true,
      });
      const index = openIndex({ dbPath: join(tmp, 'chmod.sqlite') });
      const id = '4da1eb3d-852a-4da6-8e3f-0bacc4f73990';
      const file = join(home, 'projects', '-home-user-proj-api', `${id}.jsonl`);
      try {
        await index.refresh([home]);
        const events = createLiveEvents({ index, paths: [home], debounceMs: 50 });
        const updated = new Promise<string>((done) =>
          events.subscribe((m) => {
            if (m.type === 'session-updated') done(m.sessionId);
          }),
        );
        await chmod(file, 0o000);
        const got = await Promise.race([
          updated,
          new Promise<string>((_, fail) => setTimeout(() => fail(new Error('chmod not noticed')), 10_000)),
        ]);
        events.close();
        expect(got).toBe(id);
      } finally {
        await chmod(file, 0o644);
        index.close();
      }
    },
  );
});

describe('live: a session whose id another home holds too', () => {
  it('an append to one copy says that copy was updated (its reference is its key)', async () => {
    // Two copies of one home (a backup indexed beside the live one): each session's id and project folder name are
    // the other copy's too, so a session is referred to by its key.
    const homes = [join(tmp, 'twin-a'), join(tmp, 'twin-b')];
    for (const home of homes) {
      await cp(join(samples, 'projects', '-home-user-proj-api'), join(home, 'projects', '-home-user-proj-api'), {
        recursive: true,
      });
    }
    const index = openIndex({ dbPath: join(tmp, 'twins.sqlite') });
    const id = '4da1eb3d-852a-4da6-8e3f-0bacc4f73990';
    const file = join(homes[0] as string, 'projects', '-home-user-proj-api', `${id}.jsonl`);
    try {
      await index.refresh(homes);
      const ref = index.sessionIdOfFile(file);
      expect(ref).toBe(join(homes[0] as string, 'projects', '-home-user-proj-api', id));
      const events = createLiveEvents({ index, paths: homes, watch: false });
      const updated: string[] = [];
      events.subscribe((m) => {
        if (m.type === 'session-updated') updated.push(m.sessionId);
      });
      const line = JSON.stringify({
        type: 'user',
        uuid: '4da1eb3d-0000-4000-8000-000000000001',
        parentUuid: null,
        sessionId: id,
        timestamp: '2026-11-27T23:00:00.000Z',
        cwd: '/home/user/proj/api',
        message: { role: 'user', content: 'one more prompt' },
      });
      await appendFile(file, `${line}\n`);
      await events.refresh([file]);
      events.close();
      expect(updated).toEqual([ref]);
    } finally {
      index.close();
    }
  });
});
