/** show --json and export write a session in pieces: the same text as one JSON.stringify, never one big string. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactIdentifiers } from '@agentdash/core/secrets';
import { openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { fullTests, sampleListed } from '@agentdash/testing/shared';
import { prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeJsonText } from './commands/common.js';
import { markdownChunks, toMarkdown } from './commands/export.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = resolve(here, '../../../../shared/corpus');
const corpusHomes = existsSync(corpus)
  ? readdirSync(corpus)
      .map((v) => join(corpus, v, 'claude-home'))
      .filter((h) => existsSync(join(h, 'projects')))
  : [];
if (corpusHomes.length === 0) console.log(`corpus suites: skipped (no corpus at ${corpus}); using the bundled samples`);
const wildDir = resolve(here, '../../../../shared/wild-agents');
// each folder of wild-agents/gemini is one Gemini home (its tmp/ folder)
const geminiHomes = existsSync(join(wildDir, 'gemini'))
  ? readdirSync(join(wildDir, 'gemini')).map((name) => join(wildDir, 'gemini', name))
  : [];
const wildHomes = [resolve(here, '../../../../shared/wild/claude-home'), join(wildDir, 'codex'), ...geminiHomes].filter(
  (h) => existsSync(h),
);
if (wildHomes.length === 0) console.log('wild suites: skipped (no ../shared/wild); show --json compared on the rest');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-stream-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in process, keeping every write separately. */
async function cli(args: readonly string[], db: string) {
  const writes: string[] = [];
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => writes.push(s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: {},
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', db, '--no-progress'], io);
  return { code, writes, stdout: writes.join(''), stderr };
}

describe('show --json streamed', () => {
  // One test per home, each with its own time limit (the wild homes alone are hundreds of sessions). Every session of
  // the samples; of the ../shared homes a fixed sample of every size (each whole with AGENTDASH_TEST_FULL=1), over an
  // index built once per run.
  const homes = [SAMPLES_HOME, ...corpusHomes, ...wildHomes];
  it.each(homes.map((home, n) => [home, n] as const))(
    `equals the session as one JSON.stringify, for ${fullTests ? 'every session' : 'sessions'} of %s`,
    async (home, n) => {
      let checked = 0;
      const db = join(dir, `compare-${n}.sqlite`);
      await copyOfIndex([home], db);
      const index = openIndex({ dbPath: db });
      await index.refresh([home]);
      const listed = index.listSessions({ paths: [home] });
      const sampled = home === SAMPLES_HOME ? listed : sampleListed(listed);
      for (const id of sampled.map((s) => s.id)) {
        const session = await index.loadSession(id);
        // what --json writes as one string (writeJson): identifiers redacted, DEL and C1 controls escaped
        const whole = `${safeJsonText(JSON.stringify(redactIdentifiers(session), null, 2))}\n`;
        const shown = await cli(['show', id, home, '--json'], db);
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout === whole, `${home} ${id}`).toBe(true);
        if (home === SAMPLES_HOME) {
          expect(whole).toBe(`${JSON.stringify(session, null, 2)}\n`);
          // export redacts secrets by default now (issue 12); --no-redact is the session as it is
          const exported = await cli(['export', id, home, '--format', 'json', '--no-redact'], db);
          expect(exported.stdout === whole, `${home} ${id}`).toBe(true);
        }
        checked++;
      }
      index.close();
      // some wild homes hold no session at all (a Gemini home with only its logs.json)
      if (home === SAMPLES_HOME) expect(checked).toBeGreaterThan(10);
    },
  );

  it('writes a large generated session in bounded pieces that parse back whole', async () => {
    const id = '99999999-2222-4333-8444-555555555555';
    const home = join(dir, 'big-home');
    // Over 10 MiB of --json (each result is written in several of its fields): ten times the bound on one write.
    const CALLS = 1000;
    const lines: string[] = [];
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
    lines.push(prompt({ sessionId: id, uuid: 'u-0', timestamp: at(0) }, 'Run everything'));
    for (let i = 0; i < CALLS; i++) {
      const output = `${i} `.repeat(400); // ~2 KB per result
      lines.push(
        toolUse(
          { sessionId: id, uuid: `a-${i}`, parentUuid: i === 0 ? 'u-0' : `r-${i - 1}`, timestamp: at(2 * i + 1) },
          `msg_${i}`,
          `toolu_${i}`,
          'Bash',
          {
            command: `echo ${i}`,
          },
        ),
        toolResult(
          { sessionId: id, uuid: `r-${i}`, parentUuid: `a-${i}`, timestamp: at(2 * i + 2) },
          `toolu_${i}`,
          output,
          false,
          {
            stdout: output,
            stderr: '',
            interrupted: false,
            isImage: false,
          },
        ),
      );
    }
    writeLines(join(home, 'projects', '-home-user-big', `${id}.jsonl`), lines);
    const db = join(dir, 'big.sqlite');
    const shown = await cli(['show', id, home, '--json'], db);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.length).toBeGreaterThan(10 * 1024 * 1024);
    // in pieces of about 64 KiB, never the whole text at once
    expect(shown.writes.length).toBeGreaterThan(100);
    expect(Math.max(...shown.writes.map((w) => w.length))).toBeLessThan(1024 * 1024);
    const parsed = JSON.parse(shown.stdout) as { id: string; calls: { id: string; result?: { content: unknown } }[] };
    expect(parsed.id).toBe(id);
    expect(parsed.calls.map((c) => c.id)).toEqual(Array.from({ length: CALLS }, (_, i) => `toolu_${i}`));

    const exported: Record<string, string> = {};
    for (const format of ['markdown', 'envelope'] as const) {
      const out = await cli(['export', id, home, '--format', format], db);
      expect(out.code, out.stderr).toBe(0);
      expect(out.writes.length, format).toBeGreaterThan(10);
      expect(Math.max(...out.writes.map((w) => w.length))).toBeLessThan(1024 * 1024);
      exported[format] = out.stdout;
    }
    const envelope = (exported.envelope ?? '').trimEnd().split('\n');
    expect(envelope.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(parsed.calls.map((c) => c.id));
  });

  it('Markdown in pieces is the Markdown as one string, line for line', async () => {
    const db = join(dir, 'md.sqlite');
    // the run's index of the samples (the first test above reads a copy of the same)
    await copyOfIndex([SAMPLES_HOME], db);
    const index = openIndex({ dbPath: db });
    await index.refresh([SAMPLES_HOME]);
    for (const { id } of index.listSessions({ paths: [SAMPLES_HOME] })) {
      const session = await index.loadSession(id);
      const pieces: string[] = [];
      for await (const piece of markdownChunks(session)) pieces.push(piece);
      expect(pieces.every((p) => p.endsWith('\n'))).toBe(true);
      const text = pieces.join('');
      expect(text).toBe(await toMarkdown(session));
      expect(text.startsWith(`# ${session.title ?? 'Untitled session'}\n`)).toBe(true);
      expect((await cli(['export', id, SAMPLES_HOME, '--format', 'markdown'], db)).stdout).toBe(text);
    }
    index.close();
  });
});
