/**
 * `show` of a Claude Code 2.0.x session: the client's cache warm-ups (core's `isWarmup`) are not among its subagents,
 * and the tokens line says its usage holds them. Over the bundled samples' 2.0.76 subagents session (four subagents
 * started by Task calls, two "Warmup" files) and core's 2.0.50 warm-ups fixture (three subagents, two warm-ups
 * without a prompt).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture2050 = resolve(here, '../../core/test/fixtures/claude-warmups/2.0.50/projects/-home-user-proj-subagents');
const samples2076 = join(SAMPLES_HOME, 'projects/-home-user-proj-subagents');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-show-warmups-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]): Promise<string> {
  let stdout = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: () => true, isTTY: false },
    env: {},
    homedir: dir,
    now: Date.now,
  };
  await run([...args, '--db', join(dir, 'index.sqlite'), '--no-progress'], io);
  return stdout;
}

it('show counts no warm-up as a subagent and says how many beside the tokens', async () => {
  // The subagents of the counts line and the warm-ups of the tokens line.
  const figures = async (id: string, home: string) =>
    (await cli(['show', id, home]))
      .split('\n')
      .filter((l) => /^(counts|tokens) /.test(l))
      .map((l) => /(\d+) subagents?$|\((\d+) warm-up requests?\)$/.exec(l)?.slice(1).join('') ?? l);
  expect({
    '2.0.76': await figures('3d438771', samples2076),
    '2.0.50': await figures('9270ae20', fixture2050),
  }).toEqual({ '2.0.76': ['4', '2'], '2.0.50': ['3', '2'] });
});
