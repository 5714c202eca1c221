/**
 * A session whose responses recorded no usage at all (an August 2025 Codex rollout writes no token counts) has
 * unknown tokens, not "0 in" (a review helper: wild ocodex-1, bundled as the legacy Codex fixture). A session whose
 * responses all recorded theirs keeps its line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const legacy = join(
  repoRoot,
  'packages/core/test/fixtures/codex/legacy/sessions/2025/08/30/rollout-2025-08-30T12-24-10-f532f754-e9fd-4a54-b7f6-4ffc0f1dddd4.jsonl',
);
const usageHome = join(repoRoot, 'packages/core/test/fixtures/usage');
const dir = mkdtempSync(join(tmpdir(), 'agentdash-no-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function show(session: string, path: string): Promise<string> {
  const r = await runCli(['show', session, path], { home: dir, db: join(dir, 'index.sqlite') });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

it('says the tokens of responses that recorded no usage are unknown', async () => {
  const out = await show('f532f754', legacy);
  expect(out).toMatch(/^counts {3}1 prompt, 2 responses,/m);
  // Before: "tokens   0 in".
  expect(out).toMatch(/^tokens {3}unknown: none of its 2 responses recorded usage$/m);
  expect(await show('7e2a9b4c', usageHome)).toMatch(/^tokens {3}5 in · 40 out/m);
});
