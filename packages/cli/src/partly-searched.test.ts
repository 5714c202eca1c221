/**
 * A folder of more than 256 folders named on the command line is looked into for other agents' homes only in part:
 * said once a refresh finds it, and, unlike an unreadable file, not a reason for every later command to look at every
 * transcript again (the warm path stays).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageTree } from '@agentdash/testing/age-tree';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const geminiHome = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../core/test/fixtures/gemini/wild/agentcmd-1',
);

let dir: string;
let folder: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-partly-'));
  folder = join(dir, 'backup');
  for (let i = 0; i < 300; i++) mkdirSync(join(folder, `f${String(i).padStart(3, '0')}`), { recursive: true });
  cpSync(geminiHome, join(folder, 'f010'), { recursive: true });
  // written long enough ago that no agent may still be writing them (as the warm path asks)
  ageTree(folder);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('says the folder was looked into in part, and a second command is answered warm', async () => {
  const options = { home: join(dir, 'user'), db: join(dir, 'index.sqlite') };
  const first = await runCli(['sessions', folder], options);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toContain(`${folder}: partly skipped: only 256 of its folders were looked into`);
  expect(first.stderr).not.toContain('cannot be read');
  // the home among the first 256 folders is read
  expect(first.stdout).toMatch(/\d+ sessions?\n/);
  const second = await runCli(['sessions', folder], options);
  expect(second.code, second.stderr).toBe(0);
  expect(second.stdout).toBe(first.stdout);
  expect(second.stderr).not.toContain('cannot be read');
  expect(second.stderr).not.toContain('partly skipped');
});
