/**
 * A folder named on the command line that holds no agent's transcript and is no agent's home (~/Downloads, a wrong
 * folder) is said so on stderr, one line naming the folder and where transcripts were looked for; the answer and the
 * exit code stay as they are ("No sessions.", 0; --json's stdout unchanged). A real home, an agent's home with no
 * session yet, and the default homes are answered without it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HealthResponse } from '@agentdash/server/api-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, runCli, startServe, stopServe, waitReady } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { SessionsJson } from './output/json-types.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');
const CODEX_HOME = join(fixtures, 'codex/0.98.0/codex-home');
const GEMINI_HOME = join(fixtures, 'gemini/0.61.0/.gemini');

let dir: string;
let downloads: string;
let user: string;
let emptyClaudeHome: string;
let emptyGeminiHome: string;
/** The servers the suite started: each has ended before its test does (`stopServe`), none left to write into `dir`. */
const servers: ChildProcess[] = [];

const cli = (args: readonly string[]) => runCli(args, { home: user, db: join(dir, 'index.sqlite'), env: {} });

/** The warning's shape: the folder, then every registered agent and the layouts that were looked for. */
const warningFor = (path: string) =>
  `agentdash: warning: ${path} holds no Claude Code, Codex, Gemini, Copilot CLI, Qwen Code, OpenCode or Aider transcripts (looked for projects/*/*.jsonl, sessions/**/rollout-*.jsonl, tmp/*/chats/*.json[l], session-state/*/events.jsonl, projects/*/chats/*.jsonl, opencode.db, storage/session/*/*.json, .aider.chat.history.md, */.aider.chat.history.md)\n`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-no-transcripts-'));
  // A folder of everyday files, a JSON file and a subfolder among them: nothing any agent wrote.
  downloads = join(dir, 'Downloads');
  mkdirSync(join(downloads, 'photos'), { recursive: true });
  writeFileSync(join(downloads, 'notes.txt'), 'shopping list\n');
  writeFileSync(join(downloads, 'data.json'), '{"a":1}\n');
  writeFileSync(join(downloads, 'photos', 'cat.png'), 'not really a png');
  // An empty user home (no default agent home) and agents' homes with no session yet.
  user = join(dir, 'user');
  mkdirSync(user);
  emptyClaudeHome = join(dir, 'claude-home');
  mkdirSync(join(emptyClaudeHome, 'projects'), { recursive: true });
  emptyGeminiHome = join(dir, 'gemini-home');
  mkdirSync(join(emptyGeminiHome, 'tmp', 'proj', 'chats'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a PATH that holds no agent transcripts', () => {
  it('sessions: "No sessions.", exit 0, and one warning line on stderr', async () => {
    const r = await cli(['sessions', downloads]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'No sessions.\n', warningFor(downloads)]);
  });

  it('--json: the same stdout as before, the warning on stderr only', async () => {
    const r = await cli(['sessions', downloads, '--json']);
    expect([r.code, JSON.parse(r.stdout) as SessionsJson, r.stderr]).toEqual([
      0,
      { sessions: [], truncated: false },
      warningFor(downloads),
    ]);
  });

  it('every command that reads PATH says it, warm index or not', async () => {
    for (const command of [['index'], ['stats'], ['usage'], ['search', 'anything'], ['sessions']]) {
      const r = await cli([...command, downloads]);
      expect([command[0], r.code, r.stderr]).toEqual([command[0], 0, warningFor(downloads)]);
    }
  });

  it('serve: the dashboard runs, and the warning comes once the folder has been read', async () => {
    const { child, url, stderr } = await startServe([downloads, '--no-progress'], join(dir, 'serve.sqlite'));
    servers.push(child);
    try {
      expect(url, stderr()).toBeDefined();
      await waitReady(url as string);
      for (let i = 0; i < 100 && !stderr().includes('holds no'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(
        stderr()
          .split('\n')
          .filter((line) => line.includes('holds no')),
      ).toEqual([warningFor(downloads).trim()]);
    } finally {
      await stopServe(child);
    }
  });

  it('named beside a real home: the warning names that folder alone', async () => {
    const r = await cli(['sessions', SAMPLES_HOME, downloads, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as SessionsJson).sessions.length).toBeGreaterThan(0);
    expect(r.stderr).toBe(warningFor(downloads));
  });
});

describe('no warning', () => {
  it('for the homes of Claude Code, Codex and Gemini, with sessions or with none yet', async () => {
    for (const home of [SAMPLES_HOME, CODEX_HOME, GEMINI_HOME, emptyClaudeHome, emptyGeminiHome]) {
      const r = await cli(['sessions', home]);
      // Other notes may stand there (the bundled Gemini home's resume stub is a problem of its transcripts).
      expect([home, r.code, /holds no .*transcripts/.test(r.stderr)]).toEqual([home, 0, false]);
    }
  });

  it('for the default homes (none here: the bundled samples, with their own note)', async () => {
    const r = await cli(['sessions']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
  });
});

describe('push on a machine without transcripts', () => {
  it("refuses to send the bundled samples as the person's work (push and serve --push), before any request", async () => {
    // the port of no team server: a refusal says why before anything is sent
    const team = 'http://127.0.0.1:9';
    // an index of its own: the suite's holds the homes named above, which a push without PATH would read
    const push = (args: readonly string[]) => runCli(args, { home: user, db: join(dir, 'push.sqlite'), env: {} });
    for (const args of [
      ['push', team, '--token', 't'],
      ['serve', '--push', team, '--push-token', 't', '--port', '0'],
    ]) {
      const r = await push(args);
      expect([args[0], r.code, r.stdout]).toEqual([args[0], 2, '']);
      expect(r.stderr).toBe(
        'agentdash: nothing to push: no agent transcripts on this machine, and the bundled sample sessions are never pushed (name a PATH to push its transcripts)\n',
      );
    }
    // a PATH named: pushed as asked (here the team server cannot be reached: another error)
    const named = await push(['push', team, '--token', 't', SAMPLES_HOME]);
    expect(named.stderr).not.toMatch(/nothing to push/);
  });
});

/** `agentdash serve` as a process with `user` (no agent home) as its home: its /api/health answer, asked again until `until` holds (10 s at most). */
async function healthOfServe(
  args: readonly string[],
  until: (h: HealthResponse) => boolean = () => true,
): Promise<HealthResponse> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', ...args, '--port', '0', '--db', join(dir, 'samples.sqlite'), '--no-progress'],
    { env: { PATH: process.env.PATH, HOME: user } },
  );
  servers.push(child);
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const match = /http:\/\/\S+/.exec(out);
        if (match) done(match[0]);
      });
      child.on('close', (code) => fail(new Error(`serve ended (${code})`)));
    });
    const ask = async () => (await (await fetch(`${url}api/health`)).json()) as HealthResponse;
    let health = await ask();
    for (let i = 0; i < 100 && !until(health); i++) {
      await new Promise((done) => setTimeout(done, 100));
      health = await ask();
    }
    return health;
  } finally {
    await stopServe(child);
  }
}

describe('the bundled samples, shown for want of a home', () => {
  it('serve says so in its health answer (the dashboard shows a notice); not when they are named', async () => {
    expect([(await healthOfServe([])).samples, (await healthOfServe([SAMPLES_HOME])).samples]).toEqual([true, false]);
  });
});

describe('serve over a folder of no transcripts', () => {
  it("says so in its health answer, in the terminal's words, for the dashboard to show (before: stderr only)", async () => {
    const health = await healthOfServe([downloads], (h) => h.noTranscripts !== undefined);
    expect(health.noTranscripts).toEqual([
      { path: downloads, message: warningFor(downloads).replace('agentdash: warning: ', '').trimEnd() },
    ]);
    // a home with transcripts: looked at, none said
    expect((await healthOfServe([CODEX_HOME], (h) => h.noTranscripts !== undefined)).noTranscripts).toEqual([]);
  });
});

describe('the temp folder after the suite', () => {
  it('has seen every server it started end before its folder is removed (one still stopping makes it again)', () => {
    const running = servers.filter((child) => child.exitCode === null && child.signalCode === null);
    expect([servers.length, running.map((child) => child.pid)]).toEqual([5, []]);
  });
});
