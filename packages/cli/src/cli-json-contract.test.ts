/**
 * The `--json` contract of docs/cli-json.md where it was broken: stdout holds one JSON document or nothing, and every
 * error is one JSON line on stderr whose kind and exit code say what went wrong.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { ExitCode } from './errors.js';
import type { ErrorJson, ExportJson } from './output/json-types.js';

const sb = cliSandbox('agentdash-cli-json-');
const { cli } = sb;
const words = { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' };
/** Two sessions (two conversations, not one and its copy) whose ids share the prefix `abcd000`. */
const ids = ['abcd0001-2222-4333-8444-555555555555', 'abcd0002-2222-4333-8444-555555555555'];
let home: string;

beforeAll(() => {
  home = join(sb.dir, 'home');
  for (const [i, id] of ids.entries()) writeDemoHome(home, words, id, String(i));
});

/** The one JSON error line a failed `--json` run wrote on stderr, with its exit code; nothing on stdout. */
async function jsonError(args: readonly string[]) {
  const r = await cli([...args, '--json']);
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  return { code: r.code, error: (JSON.parse(r.stderr) as ErrorJson).error };
}

describe('export --json', () => {
  it('refuses Markdown and HTML on stdout as a usage error: stdout is never anything but JSON', async () => {
    for (const format of ['markdown', 'html']) {
      const { code, error } = await jsonError(['export', ids[0]!, home, '--format', format]);
      expect(code, format).toBe(ExitCode.badArguments);
      expect(error).toEqual({
        kind: 'bad-arguments',
        message: `--format ${format} is not JSON: with --json, write it to a file (-o FILE)`,
        exitCode: ExitCode.badArguments,
      });
    }
  });

  it('with -o FILE prints what it wrote where, as one JSON object', async () => {
    for (const format of ['json', 'markdown']) {
      const file = join(sb.dir, `out.${format}`);
      const r = await cli(['export', ids[0]!, home, '--format', format, '-o', file, '--json']);
      expect(r.code, r.stderr).toBe(ExitCode.ok);
      expect(JSON.parse(r.stdout) as ExportJson).toEqual({ output: file, format });
      expect(r.stderr).toBe(`agentdash: wrote ${file}\n`);
      expect(existsSync(file)).toBe(true);
    }
    expect((JSON.parse(readFileSync(join(sb.dir, 'out.json'), 'utf8')) as { id: string }).id).toBe(ids[0]);
  });
});

describe('SESSION in a --json error', () => {
  it('a prefix of several sessions is kind ambiguous-session (exit 5) with the candidates; none is unknown-session', async () => {
    const { code, error } = await jsonError(['show', 'abcd000', home]);
    expect(code).toBe(ExitCode.unknownSession);
    expect(error).toEqual({
      kind: 'ambiguous-session',
      message: `session "abcd000" matches 2 sessions; name one of them: ${ids.join(', ')} (or give its file)`,
      exitCode: ExitCode.unknownSession,
      candidates: ids,
    });
    const unknown = await jsonError(['show', 'ffff-no-such-session', home]);
    expect(unknown.code).toBe(ExitCode.unknownSession);
    expect(unknown.error).toEqual({
      kind: 'unknown-session',
      message: 'no session matches "ffff-no-such-session"',
      exitCode: ExitCode.unknownSession,
    });
  });
});

describe('push URL', () => {
  it('a malformed or non-http(s) URL is a usage error (exit 2), not an unreachable team server', async () => {
    for (const [url, message] of [
      ['not-a-url', "not a URL: not-a-url (give the team server's address, e.g. https://team.example:4317)"],
      ['ftp://x', "the team server's URL must start with http:// or https://, got ftp://x"],
    ] as const) {
      // with a token, and without one: the address is what to mend first (a review: "needs a device token" came first)
      for (const token of [['--token', 't'], []]) {
        const { code, error } = await jsonError(['push', url, home, ...token]);
        expect(code, url).toBe(ExitCode.badArguments);
        expect(error).toEqual({ kind: 'bad-arguments', message, exitCode: ExitCode.badArguments });
      }
    }
  });
});

describe('times in --json', () => {
  it("a session's start and end are ISO UTC to the millisecond, whatever offset or precision the transcript wrote", async () => {
    const id = '0ffe0000-2222-4333-8444-555555555555';
    const folder = join(sb.dir, 'offsets', 'projects', '-home-dev-offsets');
    mkdirSync(folder, { recursive: true });
    const line = (uuid: string, timestamp: string, type: 'user' | 'assistant') =>
      JSON.stringify({
        type,
        uuid,
        parentUuid: null,
        sessionId: id,
        cwd: '/home/dev/offsets',
        timestamp,
        message:
          type === 'user'
            ? { role: 'user', content: 'hello' }
            : {
                id: `msg_${uuid}`,
                role: 'assistant',
                model: 'claude-sonnet-4-5',
                content: [{ type: 'text', text: 'hi' }],
              },
      });
    // two hours east of UTC, then no milliseconds: 08:00:05.000Z and 08:00:09.000Z
    writeFileSync(
      join(folder, `${id}.jsonl`),
      `${line('u1', '2026-01-01T10:00:05+02:00', 'user')}\n${line('a1', '2026-01-01T08:00:09Z', 'assistant')}\n`,
    );
    const path = join(sb.dir, 'offsets');
    const listed = await cli(['sessions', path, '--json']);
    const [row] = (JSON.parse(listed.stdout) as { sessions: { startedAt: string; endedAt: string }[] }).sessions;
    expect([row?.startedAt, row?.endedAt]).toEqual(['2026-01-01T08:00:05.000Z', '2026-01-01T08:00:09.000Z']);
    const shown = JSON.parse((await cli(['show', id, path, '--json'])).stdout) as {
      startedAt: string;
      endedAt: string;
    };
    expect([shown.startedAt, shown.endedAt]).toEqual(['2026-01-01T08:00:05.000Z', '2026-01-01T08:00:09.000Z']);
  });
});

describe('durations in --json', () => {
  it('a session whose records give no span (an old Codex rollout stamps its header only) has no wall time, not 0', async () => {
    const codex = fileURLToPath(new URL('../../core/test/fixtures/codex/turns/', import.meta.url));
    const listed = JSON.parse((await cli(['sessions', codex, '--json'])).stdout) as {
      sessions: { id: string; durationMs?: number; time: { wallMs: number } | null }[];
    };
    const wall = Object.fromEntries(listed.sessions.map((s) => [s.id.slice(0, 8), s.durationMs ?? null]));
    expect(wall['84b6da18']).toBeNull();
    // the others' timestamps span seconds and minutes
    expect(wall['019b2ea4']).toBeGreaterThan(1000);
    expect(wall['019f9261']).toBeGreaterThan(60_000);
    // where its time went is unknown too (was every part 0)
    const byId = new Map(listed.sessions.map((s) => [s.id.slice(0, 8), s]));
    expect(byId.get('84b6da18')?.time).toBeNull();
    for (const id of ['019b2ea4', '019f9261']) expect(byId.get(id)?.time?.wallMs).toBe(wall[id]);
  });
});

describe('search --json', () => {
  it('says when more hits match than it gives', async () => {
    const search = async (limit: number) =>
      JSON.parse((await cli(['search', words.outputOnlyWord, home, '--limit', String(limit), '--json'])).stdout) as {
        hits: unknown[];
        truncated: boolean;
      };
    const all = await search(1000);
    expect(all.hits.length).toBeGreaterThan(1);
    expect(all.truncated).toBe(false);
    const one = await search(1);
    expect([one.hits.length, one.truncated]).toEqual([1, true]);
    const exact = await search(all.hits.length);
    expect([exact.hits.length, exact.truncated]).toEqual([all.hits.length, false]);
  });
});

describe('sessions --json', () => {
  it('says when --limit leaves sessions out, and the table says so too', async () => {
    const list = async (...more: string[]) =>
      JSON.parse((await cli(['sessions', home, '--json', ...more])).stdout) as {
        sessions: { id: string }[];
        truncated: boolean;
      };
    const all = await list();
    expect(all.sessions.length).toBeGreaterThan(1);
    expect(all.truncated).toBe(false);
    const one = await list('--limit', '1');
    expect([one.sessions.map((s) => s.id), one.truncated]).toEqual([[all.sessions[0]?.id], true]);
    const exact = await list('--limit', String(all.sessions.length));
    expect([exact.sessions.length, exact.truncated]).toEqual([all.sessions.length, false]);
    const table = (await cli(['sessions', home, '--limit', '1'])).stdout;
    expect(table).toContain('1 session (there are more: --limit 2 shows more)');
    expect((await cli(['sessions', home])).stdout).not.toContain('there are more');
  });
});
