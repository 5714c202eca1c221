import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { ageTree } from '@agentdash/testing/age-tree';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import type { CliIo } from './io.js';
import type { IndexJson, SessionsJson, StatsJson } from './output/json-types.js';
import { run } from './run.js';

// Counts the full index's openings (the warm path should need none).
const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('@agentdash/index', async (importOriginal) => {
  const original = await importOriginal<typeof import('@agentdash/index')>();
  return {
    ...original,
    openIndex: (...args: Parameters<typeof original.openIndex>) => {
      opened.count += 1;
      return original.openIndex(...args);
    },
  };
});

let dir: string;
let home: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-warm-'));
  home = join(dir, 'claude-home');
  cpSync(SAMPLES_HOME, home, { recursive: true });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function json<T>(
  args: readonly string[],
  db: string,
  env: Readonly<Record<string, string>> = { CLAUDE_CONFIG_DIR: join(dir, 'none') },
  paths: readonly string[] = [home],
): Promise<T> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env,
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, ...paths, '--db', db, '--json'], io);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as T;
}

/**
 * The stored `sessions --json` answers valid now (at the current generation); `plant` replaces their text (kept
 * compressed, as the CLI keeps it: a codec byte, here brotli's 0, then the compressed bytes), or their stored bytes.
 */
function keptSessionAnswers(dbPath: string, plant?: string | Uint8Array): number {
  const db = new Database(dbPath);
  try {
    const current = "generation = (SELECT generation FROM warm_state WHERE key = 'generation')";
    // `answer:<build> sessions-json:<question>`
    const kept = `key LIKE 'answer:% sessions-json:%' AND ${current}`;
    if (plant !== undefined) {
      const value =
        typeof plant === 'string' ? Buffer.concat([Uint8Array.of(0), brotliCompressSync(plant)]) : Buffer.from(plant);
      db.prepare(`UPDATE warm_state SET value = ? WHERE ${kept}`).run(value);
    }
    return db.prepare(`SELECT count(*) FROM warm_state WHERE ${kept}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('commands on a warm index', () => {
  it('answer as a full run does, and see what changed since', async () => {
    const db = join(dir, 'warm.sqlite');
    ageTree(home);
    const cold = await json<IndexJson>(['index'], db);
    const stats = await json<StatsJson>(['stats'], db);
    // Warm runs (the freshness pass, then the stored answer) give the same answers.
    for (let i = 0; i < 3; i++) {
      expect(await json<IndexJson>(['index'], db)).toEqual({ ...cold, filesParsed: 0, bytesParsed: 0, records: 0 });
      expect(await json<StatsJson>(['stats'], db)).toEqual(stats);
    }
    // A tool call appended to a session: the next run counts it, as a fresh index does.
    const session = 'f0835e0b-b4c6-4910-817c-346fd7332302';
    const file = join(home, 'projects', '-home-user-proj-shell', `${session}.jsonl`);
    const base = { sessionId: session, cwd: '/home/user/proj-shell', timestamp: '2026-11-21T21:00:00.000Z' };
    appendFileSync(
      file,
      `${JSON.stringify({
        ...base,
        type: 'assistant',
        uuid: 'warm-call',
        message: {
          id: 'msg_warm',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_warm', name: 'Bash', input: { command: 'true' } }],
        },
      })}\n`,
    );
    const after = await json<StatsJson>(['stats'], db);
    expect(after.calls).toBe(stats.calls + 1);
    expect(after).toEqual(await json<StatsJson>(['stats'], join(dir, 'fresh.sqlite')));
    expect((await json<IndexJson>(['index'], db)).filesParsed).toBe(0);
    expect(await json<StatsJson>(['stats'], db)).toEqual(after);
    // `index` after an append reads only that folder, and reports in the same shape, in the same key order
    appendFileSync(
      file,
      `${JSON.stringify({ ...base, type: 'user', uuid: 'warm-prompt', message: { role: 'user', content: 'hi' } })}\n`,
    );
    const changed = await json<IndexJson>(['index'], db);
    expect(changed).toMatchObject({ files: cold.files, filesParsed: 1, sessions: cold.sessions });
    const order = ['files', 'filesParsed', 'bytesParsed', 'records', 'issues', 'newIssues', 'filesRemoved', 'sessions'];
    expect(Object.keys(cold).slice(0, 8)).toEqual(order);
    expect(Object.keys(changed)).toEqual(Object.keys(cold));
  }, 60_000);

  it("stay on the warm path with the default homes when another agent's home exists but holds nothing", async () => {
    const db = join(dir, 'homes.sqlite');
    // The Claude home from $CLAUDE_CONFIG_DIR; an empty ~/.codex.
    mkdirSync(join(dir, '.codex'), { recursive: true });
    const env = { CLAUDE_CONFIG_DIR: home };
    ageTree(home);
    const cold = await json<IndexJson>(['index'], db, env, []);
    await json<IndexJson>(['index'], db, env, []);
    opened.count = 0;
    expect(await json<IndexJson>(['index'], db, env, [])).toEqual({
      ...cold,
      filesParsed: 0,
      bytesParsed: 0,
      records: 0,
    });
    expect(opened.count).toBe(0);
  }, 60_000);

  it('list sessions through the light connection as the full index lists them', async () => {
    const db = join(dir, 'sessions.sqlite');
    ageTree(home);
    await json<IndexJson>(['index'], db);
    await json<IndexJson>(['index'], db);
    const full = await json<SessionsJson>(['sessions'], join(dir, 'sessions-full.sqlite'));
    expect(full.sessions.length).toBeGreaterThan(0);
    for (const args of [['sessions'], ['sessions', '--agent', 'claude', '--limit', '2']]) {
      opened.count = 0;
      const warm = await json<SessionsJson>(args, db);
      expect(opened.count).toBe(0);
      expect(warm).toEqual(await json<SessionsJson>(args, join(dir, 'sessions-full.sqlite')));
    }
    // A session appended to is listed as it is now (the full index refreshes it first).
    const session = 'f0835e0b-b4c6-4910-817c-346fd7332302';
    const before = full.sessions.find((s) => s.id === session);
    appendFileSync(
      join(home, 'projects', '-home-user-proj-shell', `${session}.jsonl`),
      `${JSON.stringify({
        sessionId: session,
        cwd: '/home/user/proj-shell',
        timestamp: '2026-11-22T10:00:00.000Z',
        type: 'user',
        uuid: 'warm-sessions',
        message: { role: 'user', content: 'one more' },
      })}\n`,
    );
    const after = (await json<SessionsJson>(['sessions'], db)).sessions.find((s) => s.id === session);
    expect(after?.messages).toBe((before?.messages ?? 0) + 1);
  }, 60_000);

  it('keep the sessions --json answer while nothing changes, and not while a session is live', async () => {
    const db = join(dir, 'sessions-kept.sqlite');
    ageTree(home);
    await json<IndexJson>(['index'], db);
    await json<IndexJson>(['index'], db);
    const listed = await json<SessionsJson>(['sessions'], db);
    // The stored answer is what the next run writes: a planted one comes out as it is.
    const planted = { sessions: [] };
    expect(keptSessionAnswers(db, JSON.stringify(planted))).toBe(1);
    expect(await json<SessionsJson>(['sessions'], db)).toEqual(planted);
    // A stored answer that cannot be read (damaged, or a codec this build does not know) is computed again.
    for (const damaged of [Uint8Array.of(1, 2, 3, 4), Uint8Array.of(9, 0x1b), Uint8Array.of(0), Uint8Array.of()]) {
      expect(keptSessionAnswers(db, damaged)).toBe(1);
      expect(await json<SessionsJson>(['sessions'], db)).toEqual(listed);
    }
    // Kept by another build of agentdash (before an upgrade): not this one's answer, computed again.
    const other = new Database(db);
    other
      .prepare(
        "UPDATE warm_state SET key = 'answer:0123456789abcdef sessions-json:' || substr(key, instr(key, ' sessions-json:') + 15) WHERE key LIKE 'answer:% sessions-json:%'",
      )
      .run();
    other.close();
    expect(await json<SessionsJson>(['sessions'], db)).toEqual(listed);
    expect(keptSessionAnswers(db)).toBe(2);
    const cleanup = new Database(db);
    cleanup.prepare("DELETE FROM warm_state WHERE key LIKE 'answer:0123456789abcdef %'").run();
    cleanup.close();
    // An age is another question on every run: answered, not kept.
    expect(await json<SessionsJson>(['sessions', '--since', '3650d'], db)).toEqual(listed);
    expect(keptSessionAnswers(db)).toBe(1);
    // An append makes the stored answer stale; a session written a moment ago is live, and stops being live as
    // time passes: its list is not kept.
    const session = 'f0835e0b-b4c6-4910-817c-346fd7332302';
    appendFileSync(
      join(home, 'projects', '-home-user-proj-shell', `${session}.jsonl`),
      `${JSON.stringify({
        sessionId: session,
        cwd: '/home/user/proj-shell',
        timestamp: new Date().toISOString(),
        type: 'user',
        uuid: 'warm-live',
        message: { role: 'user', content: 'live' },
      })}\n`,
    );
    const live = await json<SessionsJson>(['sessions'], db);
    expect(live.sessions.find((s) => s.id === session)?.isLive).toBe(true);
    expect(keptSessionAnswers(db)).toBe(0);
    expect(await json<SessionsJson>(['sessions'], db)).toEqual(live);
  }, 60_000);

  it('keep usage reports as stored answers (JSON and tables), and count a new response', async () => {
    const db = join(dir, 'usage.sqlite');
    const reports = [['daily'], ['weekly'], ['monthly'], ['project'], ['daily', '--breakdown']];
    const text = async (args: readonly string[], dbPath: string): Promise<string> => {
      let stdout = '';
      const io: CliIo = {
        stdout: { write: (s: string) => (stdout += s), isTTY: false },
        stderr: { write: () => undefined, isTTY: false },
        env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
        homedir: dir,
        now: Date.now,
      };
      expect(await run(['usage', ...args, home, '--db', dbPath], io)).toBe(0);
      return stdout;
    };
    ageTree(home);
    await json<IndexJson>(['index'], db);
    await json<IndexJson>(['index'], db);
    const computed: [unknown, string][] = [];
    for (const r of reports) computed.push([await json<unknown>(['usage', ...r], db), await text(r, db)]);
    const [daily] = computed[0] ?? [{ daily: [] }];
    expect((daily as { daily: unknown[] }).daily.length).toBeGreaterThan(0);
    opened.count = 0;
    for (const [i, r] of reports.entries()) {
      expect([await json<unknown>(['usage', ...r], db), await text(r, db)]).toEqual(computed[i]);
    }
    expect(opened.count).toBe(0);
    // A new response is counted at once, as a fresh index counts it.
    const session = 'f0835e0b-b4c6-4910-817c-346fd7332302';
    appendFileSync(
      join(home, 'projects', '-home-user-proj-shell', `${session}.jsonl`),
      `${JSON.stringify({
        sessionId: session,
        cwd: '/home/user/proj-shell',
        timestamp: '2026-11-22T09:00:00.000Z',
        type: 'assistant',
        uuid: 'warm-usage',
        requestId: 'req_warm_usage',
        message: {
          id: 'msg_warm_usage',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [{ type: 'text', text: 'done' }],
          usage: { input_tokens: 1000, output_tokens: 2000 },
        },
      })}\n`,
    );
    const after = await json<{ daily: { date: string }[] }>(['usage', 'daily'], db);
    expect(after).not.toEqual(computed[0]?.[0]);
    expect(after.daily.map((d) => d.date)).toContain('2026-11-22');
    expect(after).toEqual(await json<unknown>(['usage', 'daily'], join(dir, 'usage-fresh.sqlite')));
  }, 60_000);

  it.skipIf(process.platform === 'win32')(
    'say why every command reads everything again while a folder cannot be read',
    async () => {
      const other = join(dir, 'unreadable-home');
      cpSync(SAMPLES_HOME, other, { recursive: true });
      // A folder no one can list (a link to itself), as a folder without permission is for a user.
      const loop = join(
        other,
        'projects',
        '-home-user-proj-shell',
        'f0835e0b-b4c6-4910-817c-346fd7332302',
        'subagents',
      );
      mkdirSync(join(loop, '..'), { recursive: true });
      symlinkSync(loop, loop);
      const db = join(dir, 'unreadable.sqlite');
      for (let i = 0; i < 2; i++) {
        let stderr = '';
        const io: CliIo = {
          stdout: { write: () => true, isTTY: false },
          stderr: { write: (s: string) => (stderr += s), isTTY: false },
          env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
          homedir: dir,
          now: Date.now,
        };
        expect(await run(['sessions', other, '--db', db], io), stderr).toBe(0);
        expect(stderr, `run ${i + 1}`).toMatch(/1 file or folder cannot be read, so each command looks/);
      }
    },
    60_000,
  );
});
