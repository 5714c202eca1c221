/**
 * `show SESSION --files`: the files the session's file tools touched, as a table and as `--json` (`ShowFilesJson`),
 * equal to the dashboard's `GET /api/sessions/:id/files` over the same index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { createApp, type FilesResponse } from '@agentdash/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { ShowFilesJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const codex = resolve(here, '../../core/test/fixtures/codex');
const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-show-files-'));
  db = join(dir, 'index.sqlite');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home: dir, db });

describe('show --files', () => {
  it('lists the changed files with their outcome, then those not changed', async () => {
    const { code, stdout } = await cli(['show', SESSION, SAMPLES_HOME, '--files']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('changed 7 files (+9 −35 lines)');
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))?.split(/\s{2,}/);
    expect(row('edit-me.txt')).toEqual(['edit-me.txt', '+3 −3', '1', '2', '3']);
    expect(row('created.txt')).toEqual(['created.txt', 'created, +2 −0', '1']);
    expect(lines).toContain('not changed 5 files');
    expect(row('missing.txt')).toEqual(['missing.txt', '1']);
    expect(lines.indexOf('not changed 5 files')).toBeGreaterThan(lines.findIndex((l) => l.startsWith('unread.txt ')));
  });

  it('says where a Codex patch moved a file and which it deleted', async () => {
    const { stdout } = await cli(['show', '01a205e9', codex, '--files']);
    expect(stdout).toMatch(/^move-me\.txt +moved to moved\/moved\.txt, \+1 −1 /m);
    expect(stdout).toMatch(/^old\.txt +deleted$/m);
  });

  it('--json is the dashboard’s answer for the same session', async () => {
    const { code, stdout } = await cli(['show', SESSION, SAMPLES_HOME, '--files', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as ShowFilesJson;
    expect(json.sessionId).toBe(SESSION);
    const index = openIndex({ dbPath: db });
    try {
      const app = createApp({ index, paths: [], host: '127.0.0.1', port: 4317, assetsDir: dir });
      const res = await app.request(`/api/sessions/${SESSION}/files`, { headers: { host: '127.0.0.1:4317' } });
      const served = (await res.json()) as FilesResponse;
      expect(json.files).toEqual(served.files);
      expect(json.projectPath).toBe(served.projectPath);
      expect(json.files.length).toBe(12);
    } finally {
      index.close();
    }
  });
});
