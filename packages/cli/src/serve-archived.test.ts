/**
 * `serve` over a home the agent deleted whole (Claude Code's clean-up, a reinstall): its sessions are in the archive,
 * as every other command reads them; the server starts and lists them, by default or with the path named.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../test/harness.js';

let dir: string;
let home: string;
let db: string;
const ids: string[] = [];
const started: ChildProcess[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-serve-archived-'));
  home = join(dir, '.claude');
  db = join(dir, 'index.sqlite');
  for (let i = 0; i < 2; i++) {
    const id = nextSessionId();
    ids.push(id);
    const b = basesOf(id);
    writeLines(join(home, 'projects', `-home-user-p${i}`, `${id}.jsonl`), [
      prompt(b(`u${i}`, null, 0), `Task ${i}`),
      toolUse(b(`a${i}`, `u${i}`, 1), `msg_arch_${i}`, `toolu_arch_${i}`, 'Bash', { command: 'ls' }),
      toolResult(b(`r${i}`, `a${i}`, 2), `toolu_arch_${i}`, 'a.txt', false),
    ]);
  }
  const indexed = await runCli(['index', '--json'], { home: dir, db });
  expect(indexed.code, indexed.stderr).toBe(0);
  rmSync(home, { recursive: true, force: true });
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('serve over a home deleted whole', () => {
  for (const [name, args] of [
    ['by default', [] as string[]],
    ['named', ['HOME']],
  ] as const) {
    it(`starts and lists its archived sessions (${name})`, async () => {
      const named = args.map((a) => (a === 'HOME' ? home : a));
      const { child, url, code, stderr } = await startServe([...named, '--no-otlp', '--no-progress'], db, {
        PATH: process.env.PATH,
        HOME: dir,
      });
      started.push(child);
      // Before: exit 3, "no such file or directory: …/.claude".
      expect([url !== undefined, code], stderr()).toEqual([true, null]);
      let listed: { sessions: { id: string; archived?: boolean }[] } = { sessions: [] };
      for (let i = 0; i < 100 && listed.sessions.length < ids.length; i++) {
        listed = (await (await fetch(`${url}api/sessions`)).json()) as typeof listed;
        if (listed.sessions.length < ids.length) await new Promise((r) => setTimeout(r, 50));
      }
      expect(listed.sessions.map((s) => [s.id, s.archived]).sort()).toEqual(ids.map((id) => [id, true]).sort());
      expect((await (await fetch(`${url}api/health`)).json()) as { samples: boolean }).toMatchObject({
        samples: false,
      });
      const closed = new Promise((done) => child.on('close', done));
      child.kill('SIGINT');
      await closed;
    });
  }
});
