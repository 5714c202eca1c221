import { spawn, spawnSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ForgottenSessions, lockHolderText } from '../src/push/forgotten.js';

// The built module (test/fresh-dist.ts builds it before any test): each process below is a whole `node`.
const built = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/push/forgotten.js');

/** A process marking `count` uids of its own one at a time, each mark a read, change and write of the list. */
function marker(list: string, name: string, count: number): Promise<number | null> {
  const script = `
    const { ForgottenSessions } = await import(${JSON.stringify(built)});
    const list = ForgottenSessions.load(${JSON.stringify(list)});
    for (let i = 0; i < ${count}; i++) list.mark([${JSON.stringify(name)} + '-' + i]);
  `;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) => done(code));
  });
}

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the forgotten list shared by processes', () => {
  it('keeps every mark of processes forgetting at once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdash-forgotten-'));
    const list = join(dir, 'push-forgotten.json');
    const names = ['a', 'b', 'c'];
    const count = 80;
    expect(await Promise.all(names.map((name) => marker(list, name, count)))).toEqual([0, 0, 0]);
    const read = ForgottenSessions.load(list);
    const missing = names.flatMap((name) =>
      Array.from({ length: count }, (_, i) => `${name}-${i}`).filter((uid) => !read.has(uid)),
    );
    expect(missing).toEqual([]);
  });

  it("takes over a lock its process left behind at once, whatever the lock's time says", async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdash-forgotten-'));
    const list = join(dir, 'push-forgotten.json');
    // A process of this machine that has ended, holding the lock (killed while writing); the lock's time an hour
    // ahead (a clock set back since): by its age alone it would be waited for until then.
    const { pid } = spawnSync(process.execPath, ['-e', '0']);
    const lock = `${list}.lock`;
    writeFileSync(lock, lockHolderText(pid));
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(lock, later, later);
    // In a process of its own: a wait for the lock would hold this thread (the test could not end).
    const script = `
      const { ForgottenSessions } = await import(${JSON.stringify(built)});
      ForgottenSessions.load(${JSON.stringify(list)}).mark(['u1']);
    `;
    const marked = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      stdio: 'inherit',
      timeout: 60_000,
    });
    expect(marked.signal).toBe(null);
    expect(ForgottenSessions.load(list).has('u1')).toBe(true);
  });

  it("takes over another machine's lock by its age alone (its process cannot be asked)", async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdash-forgotten-'));
    const list = join(dir, 'push-forgotten.json');
    const lock = `${list}.lock`;
    writeFileSync(lock, `not-${hostname()} 1\n`);
    // Old already: taken over by its age.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    ForgottenSessions.load(list).mark(['u2']);
    expect(ForgottenSessions.load(list).has('u2')).toBe(true);
  });

  it("waits while the lock's holder runs, however fresh, and a container's pid is not this machine's", async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdash-forgotten-'));
    const list = join(dir, 'push-forgotten.json');
    const lock = `${list}.lock`;
    // Held by this process (it runs), or by a pid of another pid namespace (a container with the host's name), which
    // this machine cannot ask: a mark waits (its process is stopped after 1.5 s) and writes nothing.
    for (const holder of [lockHolderText(), `${hostname()}/pid:[1] ${process.pid + 100_000}\n`]) {
      writeFileSync(lock, holder);
      const script = `
        const { ForgottenSessions } = await import(${JSON.stringify(built)});
        ForgottenSessions.load(${JSON.stringify(list)}).mark(['u3']);
      `;
      const marked = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 1_500 });
      expect(marked.signal, holder).toBe('SIGTERM');
      expect(ForgottenSessions.load(list).has('u3')).toBe(false);
    }
  });
});
