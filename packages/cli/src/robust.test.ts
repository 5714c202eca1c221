import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openIndex } from '@agentdash/index';
import { countDocsMatching, dumpIndex } from '@agentdash/testing/dump';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORST_DEPTH, worstLines } from '../../../test/hostile.js';
import { bin, startServe } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import { classify, ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { SessionsJson } from './output/json-types.js';
import { run } from './run.js';

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-robust-'));
  home = join(dir, 'home');
  cpSync(SAMPLES_HOME, home, { recursive: true });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: readonly string[], db = join(dir, 'index.sqlite')): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
    homedir: join(dir, 'none'),
    now: Date.now,
  };
  const code = await run([...args, '--db', db], io);
  return { code, stdout, stderr };
}

const API = '-home-user-proj-api';
const FIRST = '1a27cc4c-c7a3-4773-8c08-9943d0a1ff88';

describe(`a home with the worst lines (${WORST_DEPTH} levels deep in every field)`, () => {
  it('every command succeeds, and the deep parts are reported with file and line', async () => {
    const file = join(home, 'projects', API, `${FIRST}.jsonl`);
    appendFileSync(file, `${worstLines(WORST_DEPTH, FIRST).join('\n')}\n`);
    const commands = [
      ['index', home],
      ['sessions', home, '--json'],
      ['stats', home, '--json'],
      ['show', FIRST, home],
      ['show', FIRST, home, '--json'],
      ['export', FIRST, home, '--format', 'markdown'],
      ['export', FIRST, home, '--format', 'envelope'],
      ['search', 'NUL', home, '--json'],
    ];
    const codes = [];
    for (const args of commands) codes.push((await cli(args)).code);
    expect(codes).toEqual(commands.map(() => ExitCode.ok));
    const sessions = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as SessionsJson;
    expect(sessions.sessions).toHaveLength(28);
    const verbose = await cli(['index', home, '--verbose']);
    const deep = verbose.stderr.split('\n').filter((l) => l.includes(': too_deep: '));
    expect(deep).toHaveLength(32);
    expect(deep[0]).toMatch(new RegExp(`${FIRST}\\.jsonl:\\d+: too_deep: value nested deeper than 100 levels`));
  });
});

describe('errors are classified honestly', () => {
  it('internal failures are internal errors with a hint, never bad arguments', () => {
    expect(classify(new RangeError('Maximum call stack size exceeded'))).toEqual({
      code: ExitCode.internal,
      kind: 'internal',
      message:
        'internal error: Maximum call stack size exceeded (this is a bug in agentdash: run again with --verbose for the stack, and please report it)',
    });
    expect(classify(new RangeError('Invalid string length')).kind).toBe('internal');
  });

  it('a directory given as --db is a bad path; the index folder and file are private', async () => {
    const r = await cli(['sessions', SAMPLES_HOME], dir);
    expect([r.code, r.stderr.trim()]).toEqual([
      ExitCode.badPath,
      `agentdash: cannot use ${dir} as the index database: it is a directory; give --db a file path`,
    ]);
    const fresh = join(dir, 'private', 'data', 'index.sqlite');
    expect((await cli(['index', SAMPLES_HOME], fresh)).code).toBe(ExitCode.ok);
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect([mode(join(dir, 'private')), mode(dirname(fresh)), mode(fresh)]).toEqual(['700', '700', '600']);
  });

  it('a huge --limit means no limit; a port out of range is a bad argument', async () => {
    const r = await cli(['sessions', SAMPLES_HOME, '--json', '--limit', '99999999999999999999']);
    expect(r.code).toBe(ExitCode.ok);
    expect((JSON.parse(r.stdout) as SessionsJson).sessions).toHaveLength(28);
    expect((await cli(['serve', SAMPLES_HOME, '--port', '70000'])).code).toBe(ExitCode.badArguments);
  });

  it('a port in use is its own exit code with a clear message', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((done) => {
      blocker.listen(0, '127.0.0.1', () => done((blocker.address() as { port: number }).port));
    });
    const r = await cli(['serve', SAMPLES_HOME, '--port', String(port)]);
    blocker.close();
    expect([r.code, r.stderr.trim().split('\n').at(-1)]).toEqual([
      ExitCode.cannotServe,
      `agentdash: port ${port} on 127.0.0.1 is already in use (another agentdash?): choose another with --port N (0 picks a free one)`,
    ]);
  });

  it('a port in use: the agentdash process says so and exits 6 (it kept running, its watcher thread alive)', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((done) => {
      blocker.listen(0, '127.0.0.1', () => done((blocker.address() as { port: number }).port));
    });
    const child = spawn(
      process.execPath,
      [bin, 'serve', SAMPLES_HOME, '--port', String(port), '--db', join(dir, 'port.sqlite'), '--no-progress'],
      { stdio: 'pipe' },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    blocker.close();
    expect([code, stderr.trim().split('\n').at(-1)]).toEqual([
      ExitCode.cannotServe,
      `agentdash: port ${port} on 127.0.0.1 is already in use (another agentdash?): choose another with --port N (0 picks a free one)`,
    ]);
  });

  it('a session id that cannot be a path (a NUL byte inside, from a hostile record) is looked up as an id', async () => {
    const nulHome = join(dir, 'nul-home');
    const project = join(nulHome, 'projects', '-p');
    mkdirSync(project, { recursive: true });
    // Discovery takes a flat agent file's session id from the raw first line: here with a raw NUL byte in it.
    const id = 'abc\u0000def';
    const good = { type: 'user', uuid: 'u2', isSidechain: true, agentId: 'a1', message: { content: 'hi' } };
    appendFileSync(
      join(project, 'agent-a1.jsonl'),
      `{"type":"user","uuid":"u1","sessionId":"${id}","isSidechain":true}\n${JSON.stringify(good)}\n`,
    );
    for (const command of ['show', 'export']) {
      const r = await cli([command, id, nulHome, ...(command === 'export' ? ['--format', 'markdown'] : [])]);
      expect([command, r.code]).toEqual([command, ExitCode.ok]);
    }
  });

  it('a file named on the command line that cannot be read is exit 4 (a symbolic link loop; works as root)', async () => {
    const loop = join(dir, 'loop', 'projects', '-p', 'loop.jsonl');
    mkdirSync(dirname(loop), { recursive: true });
    symlinkSync(loop, loop);
    for (const command of ['show', 'index']) {
      const r = await cli([command, loop]);
      expect([r.code, r.stderr]).toEqual([ExitCode.unreadableFile, expect.stringMatching(/cannot read .*ELOOP/)]);
    }
  });
});

/** Start `agentdash serve` on a free port; resolves with the URL it prints and its stderr so far. */
async function serveSamples(args: readonly string[]) {
  const { child, url, code, stderr } = await startServe(args, join(dir, 'serve.sqlite'));
  if (url === undefined) throw new Error(`serve exited with ${code}`);
  return { child, url, stderr };
}

describe('serve', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s with a dashboard tab open ends its event stream and exits',
    async (signal) => {
      const { child, url } = await serveSamples([SAMPLES_HOME]);
      const exited = new Promise<number | null>((done) => child.on('close', done));
      const response = await fetch(`${url}api/events`);
      const reader = response.body?.getReader();
      if (reader === undefined) throw new Error('no event stream');
      const hello = new TextDecoder().decode((await reader.read()).value);
      // Without the fix the stream waited for its ping timer, 25 s from the hello: the exit is awaited for less than
      // that, from the hello on (the start before it may be slow on a loaded machine, and has the test's own time).
      let waited: NodeJS.Timeout | undefined;
      const tooLate = new Promise<string>((done) => {
        waited = setTimeout(() => done('still running 22 s after the hello'), 22_000);
      });
      try {
        expect(hello).toMatch(/^event: hello/);
        child.kill(signal);
        expect(await Promise.race([exited, tooLate])).toBe(0);
      } finally {
        clearTimeout(waited);
      }
      const rest = await reader.read().then(
        (r) => (r.done ? 'ended' : 'data'),
        () => 'ended',
      );
      expect(rest).toBe('ended');
    },
    60_000,
  );

  it('on a non-loopback address it warns and prints a URL a browser can open', async () => {
    const { child, url, stderr } = await serveSamples([SAMPLES_HOME, '--host', '0.0.0.0', '--token', 'secret-token']);
    try {
      expect(url).not.toMatch(/0\.0\.0\.0/);
      const answer = await fetch(`${url}api/sessions?token=secret-token`, { redirect: 'manual' });
      expect(answer.status).toBe(200);
    } finally {
      const exited = new Promise((done) => child.on('close', done));
      child.kill('SIGTERM');
      await exited;
    }
    expect(stderr()).toMatch(/warning: listening on 0\.0\.0\.0, not only on this machine/);
    expect(stderr()).toContain(`Open ${url}?token=<your --token> once`);
  }, 20_000);
});

describe('two processes sharing one index', () => {
  it('a CLI loop beside a live refresher stores nothing twice: the shared index equals a batch one', async () => {
    const shared = join(dir, 'shared.sqlite');
    const home2 = join(dir, 'shared-home');
    cpSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-shell'), join(home2, 'projects', '-home-user-proj-shell'), {
      recursive: true,
    });
    const file = join(home2, 'projects', '-home-user-proj-shell', 'f0835e0b-b4c6-4910-817c-346fd7332302.jsonl');
    const loop = spawn(
      process.execPath,
      [
        '-e',
        `const {execFileSync}=require('node:child_process');for(let i=0;i<6;i++)execFileSync(process.execPath,[${JSON.stringify(bin)},'index',${JSON.stringify(home2)},'--db',${JSON.stringify(shared)}]);`,
      ],
      { stdio: 'ignore' },
    );
    const loopDone = new Promise<number | null>((done) => loop.on('close', done));
    const live = openIndex({ dbPath: shared });
    let running = true;
    void loopDone.then(() => {
      running = false;
    });
    let appended = 0;
    while (running || appended < 5) {
      appendFileSync(
        file,
        `${JSON.stringify({ type: 'user', uuid: `shared-${appended}`, sessionId: 'f0835e0b-b4c6-4910-817c-346fd7332302', timestamp: '2026-11-21T21:00:00.000Z', message: { role: 'user', content: `sharedword${appended} prompt` } })}\n`,
      );
      appended += 1;
      await live.refresh([home2]);
    }
    live.close();
    expect(await loopDone).toBe(0);
    const batchDb = join(dir, 'shared-batch.sqlite');
    const batch = openIndex({ dbPath: batchDb });
    await batch.refresh([home2]);
    batch.close();
    const a = dumpIndex(shared);
    const b = dumpIndex(batchDb);
    // Each appended prompt holds `sharedword<n>`: one indexed document each.
    expect(countDocsMatching(shared, 'sharedword*')).toBe(appended);
    expect({ docs: a.docs, records: a.records, issues: a.issues, fts: a.fts }).toEqual({
      docs: b.docs,
      records: b.records,
      issues: b.issues,
      fts: b.fts,
    });
  }, 60_000);
});
