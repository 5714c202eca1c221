import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, waitReady } from '../test/harness.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const geminiFixtures = resolve(here, '../../core/test/fixtures/gemini');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-gemini-cli-'));
  // A home with Gemini CLI only: 0.61 JSONL sessions in ~/.gemini.
  home = join(dir, 'home');
  cpSync(join(geminiFixtures, '0.61.0/.gemini'), join(home, '.gemini'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('Gemini CLI sessions from the command line', () => {
  it('reads ~/.gemini by default and lists every session with its agent', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'gemini']);
    expect(r.code).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    // 9 projects of 0.61 and the stub a resume left (an issue, no session).
    expect(sessions).toHaveLength(9);
    expect(new Set(sessions.map((s) => s.agent))).toEqual(new Set(['gemini']));
    const shell = sessions.find((s) => s.projectPath === '/home/user/proj/shell');
    // `ls /nonexistent-dir-rec` (exit 2) and `exit 3`: a non-zero exit is a failed call, as Claude Code's Bash.
    expect(shell && { calls: shell.toolCalls, errors: shell.errors }).toEqual({ calls: 5, errors: 2 });
  });

  it('counts calls and failures per Gemini tool, with the shared error categories', async () => {
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'gemini'])).stdout) as StatsJson;
    expect(stats.tools.run_shell_command?.calls).toBe(6);
    expect(stats.tools.run_shell_command?.errors).toBe(2);
    expect(stats.tools.run_shell_command?.categories['exit-code']).toBe(2);
    expect(stats.tools.replace?.errors).toBe(1);
    expect(stats.tools.mcp_rec_fail?.errors).toBe(1);
  });

  it('shows one session as a timeline', async () => {
    const { sessions } = JSON.parse((await cli(['sessions', '--json', '--agent', 'gemini'])).stdout) as SessionsJson;
    const edit = sessions.find((s) => s.projectPath === '/home/user/proj/edit');
    const r = await cli(['show', edit?.id ?? 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/replace/);
    expect(r.stdout).toMatch(/write_file/);
  });
});

/** `agentdash serve PATH` on a free port: the sessions it lists once indexed, or its exit code when it refuses. */
async function serveOnce(path: string, db: string): Promise<{ code: number | null; agents?: string[] }> {
  const { child, url, code, stderr } = await startServe([path, '--no-progress'], db);
  try {
    if (url === undefined) return { code };
    await waitReady(url);
    // Once seen failing under load ("other side closed"): the server's own words and state say why, if it recurs.
    const response = await fetch(`${url}api/sessions?limit=100`).catch((error: unknown) => {
      throw new Error(
        `GET api/sessions failed (${String(error)}; cause ${String((error as { cause?: unknown }).cause)}); server ` +
          `exited: ${child.exitCode ?? child.signalCode ?? 'no'}; its stderr: ${stderr() || '(empty)'}`,
      );
    });
    const list = (await response.json()) as { sessions: { agent: string }[] };
    return { code: 0, agents: list.sessions.map((s) => s.agent) };
  } finally {
    child.kill('SIGTERM');
  }
}

describe('serve PATH with Gemini paths', () => {
  it('serves a Gemini session .json file and a Gemini folder, and refuses what index refuses', async () => {
    const project = join(
      geminiFixtures,
      '0.20.2/.gemini/tmp/e33edef50a73528bc366e7ea010375572732e4f478f29f5d5f36458c9da88716',
    );
    const file = join(project, 'chats/session-2026-11-23T00-29-5d245ce1.json');
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, '{}');
    expect(await serveOnce(file, join(dir, 'serve-file.sqlite'))).toEqual({ code: 0, agents: ['gemini'] });
    expect(await serveOnce(project, join(dir, 'serve-folder.sqlite'))).toEqual({ code: 0, agents: ['gemini'] });
    // A .json file no agent recognises is no transcript, for serve as for index.
    const refused = await serveOnce(notes, join(dir, 'serve-notes.sqlite'));
    const indexed = await cli(['index', notes]);
    expect(indexed.code).not.toBe(0);
    expect(refused).toEqual({ code: indexed.code });
  }, 60_000);
});
