/**
 * Sessions that died on an API error, as the CLI says them (the recorded 2.1.330 API scenarios, bundled): `sessions`
 * gave them 0 errors and `--errors` left them out; `show` said "0 errors" and counted the client's API-error
 * message as a response whose usage was unknown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const apiHome = join(repoRoot, 'packages/core/test/fixtures/claude/claude-home/projects/-home-user-proj-api');
const dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-failed-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]): Promise<string> {
  const r = await runCli([...args, apiHome], { home: dir, db: join(dir, 'index.sqlite'), columns: 200 });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

it('lists their failed request in the errors column, and --errors keeps them alone', async () => {
  const rows = (await cli(['sessions', '--errors'])).split('\n').filter((l) => /^[0-9a-f]{8} /.test(l));
  expect(rows.map((l) => [l.slice(0, 8), /\s(\d+ API)\s/.exec(l)?.[1]]).sort()).toEqual([
    ['4da1eb3d', '1 API'],
    ['698d1a6c', '1 API'],
  ]);
});

it('says how many requests failed and were retried, and counts no response for the API-error answer', async () => {
  const out = await cli(['show', '4da1eb3d']);
  expect(out).toMatch(
    /^counts {3}1 prompt, 0 responses, 0 tool calls, 0 errors, 1 failed request \(1 retried attempt\),/m,
  );
  expect(out).not.toMatch(/none of its response/);
  expect(await cli(['show', '30a34b12'])).toMatch(/0 errors \(3 retried attempts\),/);
});
