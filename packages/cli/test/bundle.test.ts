/**
 * The bundle the launcher runs (scripts/bundle-cli.mjs) as a real process: a command that needs the parsers runs
 * to the end (the adapters are loaded by a top-level await, core's `agents/adapters.ts`: a cycle among the chunks
 * through it would deadlock, exit 13),
 * and a command on a warm index loads no parser and no schema (each file it loads is recorded by a module hook).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from '../src/default-homes.js';
import type { IndexJson } from '../src/output/json-types.js';

const bundled = resolve(dirname(fileURLToPath(import.meta.url)), '../bundle/bin.js');
const title = existsSync(bundled) ? 'the bundled CLI' : 'the bundled CLI (skipped: run `npm run build` first)';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runBundle(args: readonly string[], env: NodeJS.ProcessEnv = {}, nodeArgs: readonly string[] = []) {
  return new Promise<Run>((done) => {
    const child = spawn(process.execPath, [...nodeArgs, bundled, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let dir: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-bundle-'));
  db = join(dir, 'index.sqlite');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(bundled))(title, () => {
  it('indexes a fresh home, then a session reads back (commands that load every adapter)', async () => {
    const first = await runBundle(['index', SAMPLES_HOME, '--db', db, '--json']);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(first.stdout) as IndexJson;
    expect(report.filesParsed).toBe(report.files);
    expect(report.sessions).toBeGreaterThan(0);
    const list = await runBundle(['sessions', SAMPLES_HOME, '--db', db, '--json', '--limit', '1']);
    const id = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions[0]?.id ?? '';
    const show = await runBundle(['show', id, SAMPLES_HOME, '--db', db, '--json']);
    expect({ code: show.code, id: (JSON.parse(show.stdout) as { id: string }).id }).toEqual({ code: 0, id });
  });

  it('answers a warm index without loading a parser or the full index', async () => {
    await runBundle(['index', SAMPLES_HOME, '--db', db, '--json']);
    const hook = join(dir, 'hook.mjs');
    writeFileSync(
      hook,
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:') || url.startsWith('node:')) appendFileSync(process.env.AGENTDASH_TEST_LOADS, url + '\\n');
  return next(url, context);
}`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      // Node.js 26 deprecates module.register() (a warning on stderr) for the synchronous registerHooks() that 22.15
      // added; the older Nodes this runs on have only register().
      `import * as module from 'node:module';
import { appendFileSync } from 'node:fs';
if (typeof module.registerHooks === 'function') {
  module.registerHooks({
    load(url, context, next) {
      if (url.startsWith('file:') || url.startsWith('node:')) appendFileSync(process.env.AGENTDASH_TEST_LOADS, url + '\\n');
      return next(url, context);
    },
  });
} else module.register(${JSON.stringify(pathToFileURL(hook).href)});
`,
    );
    // The stored answers are computed once (that run opens the full index); the runs after are warm.
    for (const args of [['stats'], ['usage', 'daily']]) await runBundle([...args, SAMPLES_HOME, '--db', db, '--json']);
    // With no PATH the context reads every agent's default homes, loaded through the registry's `import()`s.
    const home = join(dir, 'home');
    cpSync(SAMPLES_HOME, join(home, '.claude'), { recursive: true });
    // an hour old, as a home's files are: this test is about what a warm start loads. A folder changed within
    // seconds before a refresh is not vouched for (freshness.ts, RACY_MS), so a home copied the instant before would
    // make the next run refresh in full, as it should.
    const past = new Date(Date.now() - 3_600_000);
    for (const entry of readdirSync(home, { recursive: true })) utimesSync(join(home, String(entry)), past, past);
    utimesSync(home, past, past);
    const homeDb = join(dir, 'home.sqlite');
    for (const args of [['index'], ['stats']]) await runBundle([...args, '--db', homeDb, '--json'], { HOME: home });
    const runs = [
      ...[['index'], ['stats'], ['usage', 'daily'], ['sessions']].map((args) => ({
        args,
        paths: [SAMPLES_HOME],
        env: {},
      })),
      { args: ['stats'], paths: [], env: { HOME: home } },
    ];
    for (const { args: command, paths, env } of runs) {
      const args = paths.length > 0 ? command : [...command, '(default homes)'];
      const loads = join(dir, `loads-${args.join('-')}.txt`);
      const runDb = paths.length > 0 ? db : homeDb;
      const warm = await runBundle(
        [...command, ...paths, '--db', runDb, '--json'],
        { ...env, AGENTDASH_TEST_LOADS: loads },
        ['--import', pathToFileURL(register).href],
      );
      expect({ args, code: warm.code, stderr: warm.stderr }).toEqual({ args, code: 0, stderr: '' });
      if (args[0] === 'index') expect((JSON.parse(warm.stdout) as IndexJson).filesParsed).toBe(0);
      const urls = readFileSync(loads, 'utf8').trim().split('\n');
      // node:crypto (and its 16 internal modules) only where a snapshot needs it, not at every start; node:zlib (and
      // the streams it builds on) only to decompress (`sessions` writes its stored output, with Node's zstd where
      // the zstd-napi addon is not built).
      const unneeded = ['node:crypto', ...(args[0] === 'sessions' ? [] : ['node:zlib'])];
      expect({ args, loaded: urls.filter((url) => unneeded.includes(url)) }).toEqual({ args, loaded: [] });
      const loaded = urls.filter((url) => url.startsWith('file:'));
      expect(loaded).toContain(pathToFileURL(bundled).href);
      // The warm commands' modules sit in a few chunks of their own (scripts/bundle-cli.mjs): Node 20 loads an ES
      // module file by file, each costing however small it is. (Split as the dynamic imports fall: over 20.)
      // Only the bundle's own files are counted: Node 22.15+'s synchronous hooks also see the CommonJS files
      // better-sqlite3 requires, which Node 20's asynchronous ones do not.
      const own = loaded.filter((url) => url.startsWith(pathToFileURL(dirname(bundled)).href + '/'));
      expect({ args, files: own.length <= 10 ? 'at most 10' : own }).toEqual({ args, files: 'at most 10' });
      const code = loaded.map((url) => readFileSync(new URL(url), 'utf8'));
      // Each adapter is defined under its own name in the bundle (`claudeCodeAdapter`, `codexAdapter`, …); the full
      // index is the module that defines `openIndex`.
      const parsers = loaded.filter((_, i) => /\b\w+Adapter = defineAdapter\(/.test(code[i] ?? ''));
      const fullIndex = loaded.filter((_, i) => /\bfunction openIndex\(/.test(code[i] ?? ''));
      // Nor zod (its schemas type results; building them costs a warm start a fifth of its own time): a module the
      // warm commands import through a barrel leaves the barrel's other modules out (scripts/bundle-cli.mjs).
      const zod = loaded.filter((_, i) => (code[i] ?? '').includes('$constructor("$ZodType"'));
      expect({ args, parsers, fullIndex, zod }).toEqual({ args, parsers: [], fullIndex: [], zod: [] });
    }
  });
});
