/**
 * A command typed while another process builds the index (a cold `serve` of a large home) answers at once from
 * what is committed, and says so. Two real processes on one real SQLite file: a builder (the built index package,
 * its refresh held after five files, as a slow disk would hold it) and the built `agentdash` CLI. Before, the CLI
 * read the rest of the home itself, and here waited for nothing: it listed every session.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const indexModule = pathToFileURL(resolve(here, '../../index/dist/index.js')).href;

let dir: string;
let db: string;

/** A process that builds the index of SAMPLES_HOME and holds its refresh before the sixth file until told. */
const BUILDER = `
import { openIndex } from ${JSON.stringify(indexModule)};
const [db, home] = process.argv.slice(2);
const index = openIndex({ dbPath: db });
let files = 0;
const report = await index.refresh([home], {
  buildNoticeBytes: 0,
  parseWorkers: 0,
  beforeFile: async () => {
    files += 1;
    if (files !== 6) return;
    process.stdout.write('held\\n');
    await new Promise((go) => process.stdin.once('data', go));
  },
});
index.close();
process.stdout.write(JSON.stringify(report) + '\\n');
`;

function cli(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args, '--db', db, '--no-progress'], {
    env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code) => done({ code, stdout, stderr })),
  );
}

/** Resolves with everything the process wrote once a line of it is `line`. */
function until(child: ChildProcessWithoutNullStreams, line: string): Promise<string> {
  let out = '';
  return new Promise((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.split('\n').includes(line)) done(out);
    });
    child.on('close', (code) => fail(new Error(`builder ended (${code}) before "${line}": ${out}`)));
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-partial-'));
  db = join(dir, 'index.sqlite');
  writeFileSync(join(dir, 'builder.mjs'), BUILDER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('while another process builds the index', () => {
  it('sessions answers from what is committed, says how far the build is, and waits for nothing', async () => {
    const builder = spawn(process.execPath, [join(dir, 'builder.mjs'), db, SAMPLES_HOME], { stdio: 'pipe' });
    let builderErr = '';
    builder.stderr.on('data', (d) => (builderErr += d));
    await until(builder, 'held');

    // The builder holds its refresh until this command is over: a command that waited for it never would be.
    const partial = await cli(['sessions', SAMPLES_HOME, '--json']);
    const stats = await cli(['stats', SAMPLES_HOME]);
    builder.stdin.end('go\n');
    const report = JSON.parse((await until(builder, '')).trim().split('\n').at(-1) ?? '{}') as { files: number };
    await new Promise((done) => builder.on('close', done));
    const complete = await cli(['sessions', SAMPLES_HOME, '--json']);

    expect([partial.code, stats.code, complete.code, builderErr]).toEqual([0, 0, 0, '']);
    const note = `agentdash: index is being built by another process: 5 of ${report.files} files so far; this answer covers only those`;
    expect(partial.stderr.trim()).toBe(note);
    expect(stats.stderr.trim().split('\n').at(-1)).toBe(note);
    const listed = (JSON.parse(partial.stdout) as SessionsJson).sessions.length;
    const all = (JSON.parse(complete.stdout) as SessionsJson).sessions.length;
    expect([listed > 0, listed < all, complete.stderr]).toEqual([true, true, '']);
  });

  it('a builder killed midway leaves no claim: the next command reads the rest itself', async () => {
    db = join(dir, 'killed.sqlite');
    const builder = spawn(process.execPath, [join(dir, 'builder.mjs'), db, SAMPLES_HOME], { stdio: 'pipe' });
    await until(builder, 'held');
    builder.kill('SIGKILL');
    await new Promise((done) => builder.on('close', done));
    const after = await cli(['sessions', SAMPLES_HOME, '--json']);
    expect([after.code, after.stderr, (JSON.parse(after.stdout) as SessionsJson).sessions.length]).toEqual([0, '', 28]);
  });

  it('a path that is not there is refused (exit 3) as without a build, not answered "No sessions."', async () => {
    db = join(dir, 'typo.sqlite');
    const builder = spawn(process.execPath, [join(dir, 'builder.mjs'), db, SAMPLES_HOME], { stdio: 'pipe' });
    await until(builder, 'held');
    const typo = join(dir, 'no-such-home');
    const during = await cli(['sessions', typo]);
    builder.stdin.end('go\n');
    await new Promise((done) => builder.on('close', done));
    const after = await cli(['sessions', typo]);
    const refused = { code: 3, stdout: '', stderr: `agentdash: no such file or directory: ${typo}\n` };
    expect([during, after]).toEqual([refused, refused]);
  });
});
