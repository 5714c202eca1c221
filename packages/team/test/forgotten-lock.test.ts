import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ForgottenSessions } from '../src/push/forgotten.js';

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
});
