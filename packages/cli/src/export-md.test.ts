/** `--format md` is Markdown (a review helper typed it, as most people would, and was refused). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const home = join(repoRoot, 'packages/core/test/fixtures/usage');
const dir = mkdtempSync(join(tmpdir(), 'agentdash-export-md-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exported = (format: string) =>
  runCli(['export', '7e2a9b4c', home, '--format', format], { home: dir, db: join(dir, 'index.sqlite') });

it('writes the same Markdown for --format md as for --format markdown', async () => {
  const markdown = await exported('markdown');
  expect(markdown.code).toBe(0);
  expect(markdown.stdout).toMatch(/^# /);
  expect(await exported('md')).toEqual(markdown);
});
