/**
 * Sharing safely: planted secrets of every rule are absent from every export format, the redaction is counted and
 * located, `--no-redact` keeps them, `secrets` lists where they are without printing them; the Markdown export keeps
 * the opening slash command and escapes Markdown in call summaries.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import {
  assistantText,
  nextSessionId,
  prompt,
  toolResult,
  toolUse,
  writeDemoHome,
  writeLines,
} from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SecretsJson, SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const viewerBuilt = existsSync(resolve(here, '../../web/dist/export/export.js'));

let dir: string;
let db: string;
let home: string;
let sessionId: string;
let main: string;
let commandSession: string;

const cli = (args: readonly string[]) => runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home } });

const planted = plantedSecrets();
const leaks = (text: string) => planted.filter((p) => text.includes(p.secret)).map((p) => p.rule);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-share-'));
  db = join(dir, 'index.sqlite');
  home = join(dir, 'home');
  sessionId = nextSessionId();
  const demo = writeDemoHome(home, { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' }, sessionId);
  main = demo.main;
  const base = (n: number) => ({
    sessionId,
    uuid: `9${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    parentUuid: n === 1 ? null : `9${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
    timestamp: `2026-11-21T21:0${n}:00.000Z`,
  });
  const everything = planted.map((p) => p.text).join('\n');
  appendFileSync(
    main,
    `${[
      prompt(base(1), `here is my config:\n${everything}`),
      toolUse(base(2), 'msg_s1', 'toolu_secret_bash', 'Bash', { command: `cat .env && echo ${planted[1]?.text}` }),
      toolResult(base(3), 'toolu_secret_bash', everything, false),
      toolUse(base(4), 'msg_s2', 'toolu_glob', 'Glob', { pattern: '**/*.md' }),
      toolResult(base(5), 'toolu_glob', 'README.md', false),
      assistantText(base(6), 'msg_s3', `I saw ${planted[0]?.text}`),
    ].join('\n')}\n`,
  );
});
beforeAll(() => {
  // A session opened by a slash command (no typed prompt).
  commandSession = nextSessionId();
  const base = (n: number) => ({
    sessionId: commandSession,
    uuid: `8${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    parentUuid: n === 1 ? null : `8${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
    timestamp: `2026-11-21T22:0${n}:00.000Z`,
  });
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${commandSession}.jsonl`), [
    prompt(
      base(1),
      '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>',
    ),
    assistantText(base(2), 'msg_c1', 'Reviewing PR 12.'),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exports redact secrets', () => {
  for (const format of ['json', 'envelope', 'markdown', ...(viewerBuilt ? ['html'] : [])]) {
    it(`${format}: no planted secret of any rule gets through, and the redaction is reported`, async () => {
      const r = await cli(['export', sessionId, home, '--format', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(leaks(r.stdout)).toEqual([]);
      const markers = new Set([...r.stdout.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)].map((m) => m[1]));
      // Every format holds the Bash call's output, which holds one secret of every rule.
      expect([...markers].sort()).toEqual(planted.map((p) => p.rule).sort());
      // Each planted secret once, though the session holds the output twice (its text and its structured copy):
      // counted as the `secrets` command counts them, at the line of the result that holds them.
      const distinct = new Set(planted.map((p) => `${p.rule} ${p.secret}`)).size;
      expect(r.stderr).toMatch(
        new RegExp(
          `agentdash: ${distinct} secrets, redacted \\d+ times \\(.*github-token \\d.*\\), in .*\\.jsonl:\\d+`,
        ),
      );
    });
  }

  it('-o FILE writes the export to the file; --no-redact keeps the secrets', async () => {
    const file = join(dir, 'raw.md');
    const r = await cli(['export', sessionId, home, '--format', 'markdown', '-o', file, '--no-redact']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(leaks(readFileSync(file, 'utf8')).sort()).toEqual(planted.map((p) => p.rule).sort());
  });

  it('markdown keeps the opening slash command and escapes Markdown in call summaries', async () => {
    const r = await cli(['export', sessionId, home, '--format', 'markdown']);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('- **Glob'))).toEqual([
      '- **Glob \\*\\*/\\*.md** · ok · 1 min',
    ]);
    const opened = await cli(['export', commandSession, home, '--format', 'markdown']);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout.split('\n## User')[1]?.split('\n').slice(2, 5)).toEqual(['```', '/review PR 12', '```']);
  });
});

describe('agentdash secrets', () => {
  it('lists file, line and rule of each finding, never the secret', async () => {
    const r = await cli(['secrets', home, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(leaks(r.stdout)).toEqual([]);
    const out = JSON.parse(r.stdout) as SecretsJson;
    expect(out.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    const rules = new Set(out.sessions.flatMap((s) => s.findings.map((f) => f.rule)));
    expect([...rules].sort()).toEqual(planted.map((p) => p.rule).sort());
    expect(new Set(out.sessions[0]?.findings.map((f) => `${f.file === main}`))).toEqual(new Set(['true']));
    const text = await cli(['secrets', home]);
    expect(leaks(text.stdout)).toEqual([]);
    expect(text.stdout.split('\n').at(-2)).toBe(`${out.total} secrets in 1 session (of 2); exports redact them`);
    expect([out.scanned, out.truncated]).toEqual([2, false]);
  });

  // A review: `secrets --limit 1` said "No secrets found in 1 session." (--json: total 0), no word of those unscanned.
  it('says when --limit left sessions unscanned, their secrets uncounted', async () => {
    const listed = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as SessionsJson;
    const newest = listed.sessions[0]?.id;
    const r = await cli(['secrets', home, '--limit', '1', '--json']);
    const out = JSON.parse(r.stdout) as SecretsJson;
    expect([out.scanned, out.truncated, out.sessions.every((s) => s.sessionId === newest)]).toEqual([1, true, true]);
    const text = (await cli(['secrets', home, '--limit', '1'])).stdout.trimEnd().split('\n').at(-1);
    expect(text).toMatch(
      / session(?:, the newest| \(of 1, the newest\); exports redact them) ?\(there are more: --limit 2 shows more\)\.?$/,
    );
  });
});

describe('agentdash secrets over the archive', () => {
  it('finds the same secrets once the transcript is gone from disk (read from the archive)', async () => {
    const copy = join(dir, 'gone-home');
    cpSync(home, copy, { recursive: true });
    const inCopy = (args: readonly string[]) =>
      runCli(args, { home: copy, db: join(dir, 'gone.sqlite'), env: { CLAUDE_CONFIG_DIR: copy } });
    const before = await inCopy(['secrets', copy, '--json']);
    expect(before.code, before.stderr).toBe(0);
    expect((JSON.parse(before.stdout) as SecretsJson).total).toBeGreaterThan(0);
    rmSync(join(copy, relative(home, main)));
    const after = await inCopy(['secrets', copy, '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
  });
});

describe('agentdash sessions --json', () => {
  it('carries the count of secrets found in each session at index time', async () => {
    const r = await cli(['sessions', home, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const counts = new Map((JSON.parse(r.stdout) as SessionsJson).sessions.map((s) => [s.id, s.secrets]));
    expect(counts.get(commandSession)).toBe(0);
    // The prompt and the Bash call's output each hold one secret of every rule; the command holds one more.
    expect(counts.get(sessionId)).toBeGreaterThanOrEqual(2 * planted.length + 1);
  });
});

describe('a secret in the first prompt (the session title)', () => {
  const titled = nextSessionId();
  const titleHome = () => join(dir, 'title-home');
  const inTitleHome = (args: readonly string[]) =>
    runCli(args, { home: titleHome(), db: join(dir, 'title.sqlite'), env: { CLAUDE_CONFIG_DIR: titleHome() } });
  const inTitle = planted.filter((p) => p.rule === 'anthropic-api-key' || p.rule === 'url-password');
  beforeAll(() => {
    const base = (n: number) => ({
      sessionId: titled,
      uuid: `7${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
      parentUuid: n === 1 ? null : `7${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
      timestamp: `2026-11-21T23:0${n}:00.000Z`,
    });
    writeLines(join(titleHome(), 'projects', '-home-user-proj-title', `${titled}.jsonl`), [
      prompt(base(1), `my key is ${inTitle.map((p) => p.text).join(' and ')}`),
      assistantText(base(2), 'msg_t1', 'Noted.'),
    ]);
  });

  for (const format of ['json', 'envelope', 'markdown', ...(viewerBuilt ? ['html'] : [])]) {
    it(`${format}: is redacted everywhere in the exported file`, async () => {
      const file = join(dir, `title.${format}`);
      const r = await inTitleHome(['export', titled, titleHome(), '--format', format, '-o', file]);
      expect(r.code, r.stderr).toBe(0);
      expect(inTitle.filter((p) => readFileSync(file, 'utf8').includes(p.secret)).map((p) => p.rule)).toEqual([]);
    });
  }
});

describe('a secret crossing the cut of a long first prompt (the session title)', () => {
  const crossing = nextSessionId();
  const crossHome = () => join(dir, 'cross-home');
  const inCrossHome = (args: readonly string[]) =>
    runCli(args, { home: crossHome(), db: join(dir, 'cross.sqlite'), env: { CLAUDE_CONFIG_DIR: crossHome() } });
  // The title is cut near 200 characters: the URL's password starts before the cut and ends after it.
  const secret = 'S3cretPassw0rdLong';
  beforeAll(() => {
    const base = (n: number) => ({
      sessionId: crossing,
      uuid: `6${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
      parentUuid: n === 1 ? null : `6${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
      timestamp: `2026-11-22T01:0${n}:00.000Z`,
    });
    writeLines(join(crossHome(), 'projects', '-home-user-proj-cross', `${crossing}.jsonl`), [
      prompt(base(1), `${'x'.repeat(170)} https://admin:${secret}@db.example.com`),
      assistantText(base(2), 'msg_x1', 'Noted.'),
    ]);
  });

  // The formats that hold the title (envelope holds tool calls only; this session has none).
  for (const format of ['json', 'markdown', ...(viewerBuilt ? ['html'] : [])]) {
    it(`${format}: no part of the secret is exported`, async () => {
      const file = join(dir, `cross.${format}`);
      const r = await inCrossHome(['export', crossing, crossHome(), '--format', format, '-o', file]);
      expect(r.code, r.stderr).toBe(0);
      const out = readFileSync(file, 'utf8');
      expect(out).toContain('[REDACTED:url-password]');
      // Any 6 characters of the secret in a row.
      const parts = Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));
      expect(parts.filter((part) => out.includes(part))).toEqual([]);
      expect(out).toContain('x'.repeat(170));
    });
  }

  it('sessions lists the title cut before the URL', async () => {
    const r = await inCrossHome(['sessions', crossHome(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const row = (JSON.parse(r.stdout) as SessionsJson).sessions.find((s) => s.id === crossing);
    expect(row?.title).toBe(`${'x'.repeat(170)}…`);
  });
});
