/**
 * Nothing leaked (issue 36): for every rule, a session with one of its secrets in every field a transcript has,
 * indexed into a real SQLite file, then every CLI output and every API route of a real server, started without and
 * with `--redact`, checked for it (docs/secrets.md):
 *
 * - the secret planted in identifiers (title records, cwd, git branch, and so the project path and folder) is never
 *   shown, anywhere;
 * - the secret planted in content (prompt, reply, thinking, tool input and output) is shown where content is the
 *   user's own to read (`show`, `search`, the dashboard without `--redact`) and nowhere else: not in lists, not in
 *   `secrets`, not in any export format, not in any API answer of `serve --redact`.
 *
 * The two are variants of one planted secret (`plantedSecrets(1)` and `plantedSecrets(0)`), so each check can tell
 * where a leak came from.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findSecrets } from '@agentdash/core/secrets';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { openIndex } from '@agentdash/index';
import { type RunningServer, startServer } from '@agentdash/server';
import { assistantText, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const viewerBuilt = existsSync(resolve(here, '../../web/dist/export/export.js'));

const content = plantedSecrets(0);
const named = plantedSecrets(1);
/** A word each session's prompt holds, to search for. */
const WORD = 'zebrafishwanders';

/** Claude Code's project folder name for a working directory. */
const folderOf = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, '-');

interface Planted {
  readonly rule: string;
  readonly sessionId: string;
  /** Planted in identifiers: never shown. */
  readonly hidden: readonly string[];
  /** Planted in content: shown only where content is shown as it is. */
  readonly inContent: string;
}

let dir: string;
let home: string;
let db: string;
const sessions: Planted[] = [];

const cli = (args: readonly string[]) => runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home } });

/** Which planted secrets a text shows: `hidden` ones (never allowed) and content ones. */
function leaks(text: string): { hidden: string[]; content: string[] } {
  return {
    hidden: sessions.filter((s) => s.hidden.some((h) => text.includes(h))).map((s) => s.rule),
    content: sessions.filter((s) => text.includes(s.inContent)).map((s) => s.rule),
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-planted-'));
  home = join(dir, 'home');
  db = join(dir, 'index.sqlite');
  content.forEach((c, i) => {
    const n = named[i];
    if (n === undefined) throw new Error(`no second variant for ${c.rule}`);
    const sessionId = `${String(i + 1).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`;
    const cwd = `/home/user/work ${n.text}`;
    const branch = `fix/${n.text}`;
    const folder = folderOf(cwd);
    // The folder name keeps a secret only where Claude Code's renaming leaves one a rule still finds.
    const inFolder = findSecrets(folder).some((f) => f.rule === c.rule) ? [folderOf(n.secret)] : [];
    sessions.push({ rule: c.rule, sessionId, hidden: [n.secret, ...inFolder], inContent: c.secret });
    const base = (k: number) => ({
      sessionId,
      uuid: `${String(i + 1).padStart(4, '0')}${String(k).padStart(4, '0')}-0000-4000-8000-000000000000`,
      parentUuid:
        k === 1
          ? null
          : `${String(i + 1).padStart(4, '0')}${String(k - 1).padStart(4, '0')}-0000-4000-8000-000000000000`,
      timestamp: `2026-11-21T21:${String(i).padStart(2, '0')}:0${k}.000Z`,
      cwd,
    });
    const onBranch = (line: string) => JSON.stringify({ ...JSON.parse(line), gitBranch: branch });
    const thinking = JSON.parse(assistantText(base(2), `msg_${i}_think`, '')) as {
      message: { content: unknown[] };
    };
    thinking.message.content = [{ type: 'thinking', thinking: `I should not repeat ${c.text}`, signature: 'sig' }];
    writeLines(join(home, 'projects', folder, `${sessionId}.jsonl`), [
      onBranch(prompt(base(1), `${WORD}: here is my config\n${c.text}`)),
      onBranch(JSON.stringify(thinking)),
      onBranch(assistantText(base(3), `msg_${i}_reply`, `You pasted ${c.text}; rotate it.`)),
      onBranch(toolUse(base(4), `msg_${i}_tool`, `toolu_${i}`, 'Bash', { command: `echo '${c.text}' > .env` })),
      onBranch(
        toolResult(base(5), `toolu_${i}`, `wrote ${c.text}`, false, {
          stdout: `wrote ${c.text}`,
          stderr: '',
          interrupted: false,
        }),
      ),
      JSON.stringify({ type: 'summary', summary: `summary ${n.text}`, leafUuid: base(5).uuid }),
      JSON.stringify({ type: 'ai-title', aiTitle: `ai title ${n.text}`, sessionId }),
      JSON.stringify({ type: 'custom-title', customTitle: `custom title ${n.text}`, sessionId }),
    ]);
  });
});
afterAll(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));

describe('planted secrets: the CLI', () => {
  it('every rule is planted, once in identifiers and once in content', () => {
    expect(sessions.map((s) => s.rule)).toEqual(content.map((c) => c.rule));
    expect(sessions.filter((s) => s.hidden.length === 2).length).toBeGreaterThan(3);
  });

  it('sessions --json and secrets --json show neither', async () => {
    for (const args of [
      ['sessions', home, '--json'],
      ['sessions', home],
      ['secrets', home, '--json'],
      ['secrets', home],
      ['usage', 'session', home, '--json'],
      ['usage', 'project', home, '--json'],
      ['stats', home, '--json'],
    ]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(leaks(r.stdout + r.stderr), args.join(' ')).toEqual({ hidden: [], content: [] });
    }
    const listed = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as SessionsJson;
    // Each title is the custom title, its secret redacted.
    expect(listed.sessions.every((s) => /^custom title .*\[REDACTED:[a-z0-9-]+\]/s.test(s.title ?? ''))).toBe(true);
  });

  it('show and search show content as it is, never an identifier', async () => {
    for (const s of sessions) {
      for (const args of [
        ['show', s.sessionId, home],
        ['show', s.sessionId, home, '--json'],
      ]) {
        const r = await cli(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        const found = leaks(r.stdout + r.stderr);
        expect(found.hidden, args.join(' ')).toEqual([]);
        // Content is the user's to read: the prompt is there as written.
        expect(found.content, args.join(' ')).toEqual([s.rule]);
      }
    }
    for (const args of [
      ['search', WORD, home],
      ['search', WORD, home, '--json'],
    ]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(leaks(r.stdout).hidden, args.join(' ')).toEqual([]);
    }
  });

  for (const format of ['json', 'envelope', 'markdown', ...(viewerBuilt ? ['html'] : [])]) {
    it(`export --format ${format} shows neither`, async () => {
      for (const s of sessions) {
        const r = await cli(['export', s.sessionId, home, '--format', format]);
        expect(r.code, r.stderr).toBe(0);
        expect(leaks(r.stdout + r.stderr), `${s.rule}`).toEqual({ hidden: [], content: [] });
      }
    });
  }
});

/** Every route of the API for every planted session (and the lists), with its text. */
async function everyAnswer(server: RunningServer): Promise<{ route: string; text: string }[]> {
  const get = async (route: string) => {
    const res = await fetch(new URL(route, server.url));
    return { route, status: res.status, text: await res.text() };
  };
  const routes = [
    'api/health',
    'api/agents',
    'api/sessions',
    'api/sessions?limit=1000&sort=title',
    `api/sessions?q=${WORD}`,
    'api/stats',
    'api/usage',
    'api/calls',
    'api/calls?status=ok&limit=2000',
  ];
  for (const s of sessions) {
    const id = encodeURIComponent(s.sessionId);
    const i = content.findIndex((c) => c.rule === s.rule);
    routes.push(
      `api/sessions/${id}`,
      `api/sessions/${id}/events?all=1&limit=500`,
      `api/sessions/${id}/events`,
      `api/sessions/${id}/calls/toolu_${i}`,
      `api/sessions/${id}/locate/toolu_${i}`,
      `api/sessions/${id}/errors`,
      `api/sessions/${id}/find?q=${WORD}`,
      `api/sessions/${id}/find?q=config`,
      `api/sessions/${id}/waterfall`,
      `api/sessions/${id}/issues`,
      ...(viewerBuilt ? [`api/sessions/${id}/export.html`, `api/sessions/${id}/export.html?redact=0`] : []),
    );
  }
  const answers = [];
  for (const route of routes) {
    const a = await get(route);
    expect(a.status, `${route}: ${a.text.slice(0, 200)}`).toBe(200);
    answers.push(a);
  }
  return answers;
}

for (const redact of [false, true]) {
  describe(`planted secrets: the API of serve${redact ? ' --redact' : ''}`, () => {
    let server: RunningServer;
    let index: ReturnType<typeof openIndex>;
    beforeAll(async () => {
      index = openIndex({ dbPath: join(dir, `serve-${redact}.sqlite`) });
      await index.refresh([home]);
      server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, redact, refreshOnStart: false });
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      index?.close();
    });

    it(redact
      ? 'never shows a planted secret'
      : 'never shows an identifier; content only where it is read', async () => {
      const answers = await everyAnswer(server);
      // `export.html?redact=0` is the session as it is (the export's --no-redact), except on a shared screen.
      const hidden = answers
        .filter((a) => redact || !a.route.endsWith('?redact=0'))
        .flatMap((a) => leaks(a.text).hidden.map((rule) => `${a.route} ${rule}`));
      expect(hidden).toEqual([]);
      // Content may be read in the session's own pages; never in lists, statistics or a redacted export.
      const contentRoutes =
        /\/(events|calls\/toolu_\d+|find\?q=[^&]+)$|events\?all=1&limit=500$|export\.html\?redact=0$|sessions\?q=/;
      const shown = answers.flatMap((a) =>
        leaks(a.text)
          .content.filter(() => redact || !contentRoutes.test(a.route))
          .map((rule) => `${a.route} ${rule}`),
      );
      expect(shown).toEqual([]);
      const health = JSON.parse(answers[0]?.text ?? '{}') as { redact?: boolean };
      expect(health.redact).toBe(redact);
      if (!redact) {
        // Not vacuous: without --redact the session's own pages show what was typed.
        const pages = answers.filter((a) => /events\?all=1&limit=500$/.test(a.route));
        expect(pages.flatMap((a) => leaks(a.text).content).sort()).toEqual(sessions.map((s) => s.rule).sort());
      }
    }, 300_000);
  });
}
