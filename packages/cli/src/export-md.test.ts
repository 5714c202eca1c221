/** `--format md` is Markdown (a review helper typed it, as most people would, and was refused). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { run } from './run.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const home = join(repoRoot, 'packages/core/test/fixtures/usage');
const dir = mkdtempSync(join(tmpdir(), 'agentdash-export-md-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exported(format: string): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 160 },
    stderr: { write: () => true, isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
    homedir: dir,
    now: () => Date.parse('2026-11-21T12:00:00Z'),
    readStdin: async () => undefined,
  };
  const code = await run(['export', '7e2a9b4c', home, '--format', format, '--db', join(dir, 'index.sqlite')], io);
  return { code, stdout };
}

it('writes the same Markdown for --format md as for --format markdown', async () => {
  const markdown = await exported('markdown');
  expect(markdown.code).toBe(0);
  expect(markdown.stdout).toMatch(/^# /);
  expect(await exported('md')).toEqual(markdown);
});
