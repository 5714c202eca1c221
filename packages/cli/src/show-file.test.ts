/**
 * `show FILE` reads a file as `sessions FILE` does: a `.jsonl` that `sessions FILE` lists (bytes that are no JSON, an
 * empty file) is shown, with the same note of its problems, even in a folder whose own reading does not take it for a
 * session (a folder that holds an agent's home: its loose `.jsonl` files are none).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { ExitCode } from './errors.js';
import type { SessionsJson } from './output/json-types.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');

let dir: string;
let folder: string;
let user: string;
let n = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-show-file-'));
  user = join(dir, 'user');
  mkdirSync(user);
  // A scratch folder with a Codex home in it, beside two files named like transcripts that are none.
  folder = join(dir, 'scratch');
  cpSync(join(fixtures, 'codex/0.169.0/codex-home'), join(folder, 'cx'), { recursive: true });
  writeFileSync(join(folder, 'bin.jsonl'), Buffer.from([0, 0xdb, 0xb8, 0x8b, 0x7b, 0x20, 0xbb, 0x0a, 0xff, 0x0a]));
  writeFileSync(join(folder, 'empty.jsonl'), '');
  writeFileSync(join(folder, 'notes.txt'), 'shopping list\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `agentdash ARGS` on a database of its own, with no agent home. */
const fresh = (args: readonly string[]) => runCli(args, { home: user, db: join(dir, `${n++}.sqlite`), env: {} });

describe('show FILE', () => {
  it.each(['bin', 'empty'])('of %s.jsonl: shown as sessions FILE lists it, with the same notes', async (name) => {
    const file = join(folder, `${name}.jsonl`);
    const ids = (JSON.parse((await fresh(['sessions', file, '--json'])).stdout) as SessionsJson).sessions;
    expect(ids.map((s) => s.id)).toEqual([name]);
    const listed = await fresh(['sessions', file]);
    const shown = await fresh(['show', file]);
    // Before: exit 5, "no session matches" (the folder's reading, with its Codex home, left the file out).
    expect([shown.code, shown.stderr]).toEqual([0, listed.stderr]);
    expect(shown.stdout).toMatch(new RegExp(`^session {2}${name}$`, 'm'));
  });

  it('of a file no agent reads: refused as sessions FILE refuses it, before its folder is read', async () => {
    const file = join(folder, 'notes.txt');
    const listed = await fresh(['sessions', file]);
    const db = join(dir, 'notes.sqlite');
    const shown = await runCli(['show', file], { home: user, db, env: {} });
    // Before: its folder read first (the Codex home in it indexed), then "no session matches" (exit 5).
    expect([shown.code, shown.stderr, existsSync(db)]).toEqual([listed.code, listed.stderr, false]);
    expect(shown.code).toBe(ExitCode.badPath);
  });
});

describe('a session whose files name no model', () => {
  it('is shown as an unknown Codex model, its id kept in --json (it read "codex-unknown-model")', async () => {
    const file = join(fixtures, 'codex/exec/0.169.0-shell.exec.jsonl');
    const shown = await fresh(['show', file]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/model +unknown Codex model\n/);
    expect(shown.stdout).not.toContain('codex-unknown-model');
    const listed = await fresh(['sessions', '--json', file]);
    expect((JSON.parse(listed.stdout) as SessionsJson).sessions.map((s) => s.models)).toEqual([
      ['codex-unknown-model'],
    ]);
  });
});
