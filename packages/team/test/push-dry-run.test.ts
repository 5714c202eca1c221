/**
 * `agentdash push --dry-run` and `--payloads` (real PostgreSQL, real HTTP, the built CLI): what a push would send,
 * project by project and session by session, with nothing sent. Proved against the push that follows: the payloads
 * the dry run wrote are those the server then stores (the same uids and digests), and before it the server holds
 * nothing of the device and has not marked it as having pushed.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bin } from '../../cli/test/harness.js';
import { PushSession } from '../src/contract.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const run = promisify(execFile);

pgSuite('push --dry-run and --payloads (real PostgreSQL, the built CLI)', () => {
  let team: TeamFixture;
  let dir: string;
  let args: string[];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-dry-'));
    const home = join(dir, '.claude');
    cpSync(SAMPLES, home, { recursive: true });
    env = { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), AGENTDASH_TEAM_TOKEN: '' };
    // metadata by default, one project in full, one rule that names nothing (a typo a person should hear of)
    args = [
      'push',
      team.url,
      '--token',
      team.token,
      home,
      '--db',
      join(dir, 'index.sqlite'),
      '--share',
      'metadata',
      '--share-project=-home-user-proj-shell=full',
      '--share-project=/no/such/project=summary',
    ];
  });
  afterAll(async () => {
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const held = async () => ({
    sessions: (await team.db.sql`select uid, digest, tier from sessions order by uid`).map((r) => ({ ...r })),
    pushed: (await team.db.sql`select last_push_at from devices where name = 'laptop'`).map((r) => r.last_push_at),
  });

  it('tells each project its tier and size, sends nothing, and its payloads are what the push then stores', async () => {
    const dry = await run(process.execPath, [bin, ...args, '--dry-run', '--json'], { env });
    const report = JSON.parse(dry.stdout);
    expect(report).toMatchObject({
      dryRun: true,
      person: 'ann',
      device: 'laptop',
      unmatchedRules: ['/no/such/project=summary'],
    });
    expect(dry.stderr).toMatch(/--share-project \/no\/such\/project=summary names no session/);
    expect(await held()).toEqual({ sessions: [], pushed: [null] });

    const shell = report.projects.filter((p: { project: string }) => p.project.endsWith('/proj/shell'));
    expect(shell).toEqual([expect.objectContaining({ tier: 'full', rule: '-home-user-proj-shell=full' })]);
    expect(shell[0].transcriptBytes).toBeGreaterThan(0);
    const others = report.projects.filter((p: { project: string }) => !p.project.endsWith('/proj/shell'));
    expect(others.length).toBeGreaterThan(5);
    for (const p of others) expect(p).toMatchObject({ tier: 'metadata', rule: null, transcriptBytes: 0 });
    const sum = (key: 'sessions' | 'payloadBytes') =>
      report.projects.reduce((n: number, p: Record<string, number>) => n + (p[key] as number), 0);
    expect(sum('sessions')).toBe(report.sessions);
    expect(report.tiers).toEqual({
      summary: 0,
      metadata: report.sessions - shell[0].sessions,
      full: shell[0].sessions,
    });

    // in words: a row a project, then the whole
    const text = (await run(process.execPath, [bin, ...args, '--dry-run'], { env, maxBuffer: 1 << 24 })).stdout;
    expect(text).toMatch(/^PROJECT +TIER +SESSIONS +WOULD SEND +BECAUSE\n/);
    expect(text).toMatch(
      /\/home\/user\/proj\/shell +full +\d +[\d.]+ KiB \+ [\d.]+ KiB of transcripts +--share-project -home-user-proj-shell=full\n/,
    );
    expect(text.split('\n').filter((l) => / metadata +\d+ .*default \(--share\)$/.test(l))).toHaveLength(others.length);
    expect(text).toContain(
      `dry run, nothing sent: would push to ${team.url} as ann/laptop: ${report.sessions} sessions`,
    );

    // each session exactly as it would leave: valid payloads, their sizes those the report adds up
    const lines = (await run(process.execPath, [bin, ...args, '--payloads'], { env })).stdout.trim().split('\n');
    const planned = lines.map((line) => JSON.parse(line));
    expect(planned).toHaveLength(report.sessions);
    for (const p of planned) expect(PushSession.safeParse(p.payload).success).toBe(true);
    expect(planned.reduce((n, p) => n + Buffer.byteLength(JSON.stringify(p.payload)), 0)).toBe(sum('payloadBytes'));
    expect(await held()).toEqual({ sessions: [], pushed: [null] });

    // and each transcript chunk as it would leave (read again, not named from the cache the runs above filled): the
    // chunks of a file, in order, are that file as the full tier sends it (the samples hold no secret: as it is)
    const chunksDir = join(dir, 'chunks');
    const withChunks = await run(process.execPath, [bin, ...args, '--payloads', '--chunks', chunksDir], { env });
    const full = withChunks.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((p) => p.tier === 'full');
    expect(full.length).toBe(shell[0].sessions);
    const files = full.flatMap((p) => p.payload.files as { name: string; chunks: string[] }[]);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = file.chunks.map((sha) => readFileSync(join(chunksDir, `${sha}.txt`), 'utf8')).join('');
      const source = join(dir, '.claude', 'projects', '-home-user-proj-shell', file.name);
      expect(text, file.name).toBe(readFileSync(source, 'utf8'));
    }
    expect(readdirSync(chunksDir).length).toBe(new Set(files.flatMap((f) => f.chunks)).size);
    expect(withChunks.stderr).toContain(`written to ${chunksDir}`);
    expect(await held()).toEqual({ sessions: [], pushed: [null] });

    // the push: the server stores those very payloads
    const pushed = JSON.parse((await run(process.execPath, [bin, ...args, '--json'], { env })).stdout);
    expect(pushed.stored).toBe(report.sessions);
    const after = await held();
    expect(after.pushed[0]).not.toBeNull();
    const wanted = planned
      .map((p) => ({ uid: p.payload.uid, digest: p.payload.digest, tier: p.tier }))
      .sort((a, b) => (a.uid < b.uid ? -1 : 1));
    expect(after.sessions).toEqual(wanted);
  }, 120_000);

  it('is one mode at a time, and says so', async () => {
    const refused = await run(process.execPath, [bin, ...args, '--dry-run', '--watch'], { env }).catch((e) => e);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/--dry-run and --watch: one at a time/)]);
    const alone = await run(process.execPath, [bin, ...args, '--chunks', join(dir, 'x')], { env }).catch((e) => e);
    expect([alone.code, alone.stderr]).toEqual([
      2,
      expect.stringMatching(/--chunks goes with --dry-run or --payloads/),
    ]);
  });
});
