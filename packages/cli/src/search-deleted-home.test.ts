/**
 * A home deleted whole, named by a relative path with no slash (`search word wd`): its sessions are in the archive,
 * but search took `wd` for a second word written unquoted and refused it (a review helper; `sessions wd` listed
 * them). Run as a process in the folder that held it, as a person would.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { bin } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-search-deleted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args, '--db', join(dir, 'index.sqlite')], { cwd: dir, encoding: 'utf8' });

it('searches a deleted home the archive keeps, named relative; a word that is no path is still said as one', () => {
  const outputOnlyWord = 'zanzibarquartz';
  writeDemoHome(join(dir, 'wd'), { outputOnlyWord, subagentOnlyWord: 'subonlyword' });
  expect(cli('index', 'wd').status).toBe(0);
  rmSync(join(dir, 'wd'), { recursive: true });
  const found = cli('search', outputOnlyWord, 'wd', '--json');
  expect(found.status, found.stderr).toBe(0);
  expect(JSON.parse(found.stdout).hits.length).toBeGreaterThan(0);
  const words = cli('search', outputOnlyWord, 'tool');
  expect(words.status).toBe(2);
  expect(words.stderr).toContain('to search for several words, quote them');
});
