import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { coveringListed, kindsOf } from '@agentdash/testing/covering-sample';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { fullTests, groupOfListed } from '@agentdash/testing/shared';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { toSessionRow } from './mapping.js';
import { answerValue } from './raw-json.js';
import { createLocalSessionHost } from './session-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const fixtures = resolve(here, '../../core/test/fixtures');
const shared = resolve(here, '../../../../shared');
const corpus = join(shared, 'corpus');
const wildAgents = join(shared, 'wild-agents');
const dirsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : []);
const foldersIn = (dir: string) => dirsIn(dir).filter((path) => statSync(path).isDirectory());
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
const sharedHomes = [
  join(shared, 'wild', 'claude-home'),
  ...dirsIn(corpus).map((version) => join(version, 'claude-home')),
  // the Codex projects as one home (one index, the one the other suites read too), each Gemini project a home
  join(wildAgents, 'codex'),
  ...foldersIn(join(wildAgents, 'gemini')),
].filter((home) => existsSync(home) && readdirSync(home).length > 0);

/**
 * `GET /api/sessions/:id` answers from the index (no transcript parsed); every session's header must be the one the
 * loaded session gives (`SessionView.detail`), field for field and in the same order. Every session of the home, or
 * with `sample` those showing every kind of record it holds (every session under AGENTDASH_TEST_FULL=1).
 */
async function headersOf(home: string, sample = false) {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-header-'));
  // the run's index of this read-only home, copied (built once per run, as a cold refresh builds it)
  await copyOfIndex([home], join(tmp, 'index.sqlite'));
  const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  try {
    await index.refresh([home]);
    // the database holds this home only: every session of it is served
    const app = createApp({ index, paths: [], host: '127.0.0.1', port: 4317, assetsDir: tmp });
    const loaded = createLocalSessionHost(index);
    const out: { ref: string; fromIndex: string; fromSession: string }[] = [];
    const listed = index.listSessions();
    // what each session shows, its files read once: for the sample and for the test's check of it
    const kinds = new Map(sample ? listed.map((session) => [session, kindsOf(groupOfListed(session))] as const) : []);
    const kindsOfSession = (session: (typeof listed)[number]) => kinds.get(session) ?? new Set<string>();
    const read = sample ? coveringListed(listed, undefined, kindsOfSession) : listed;
    for (const summary of read) {
      const row = toSessionRow(summary);
      const res = await app.request(`/api/sessions/${encodeURIComponent(row.id)}`, {
        headers: { host: '127.0.0.1:4317' },
      });
      out.push({
        ref: row.id,
        fromIndex: JSON.stringify(await res.json()),
        fromSession: JSON.stringify(answerValue(await loaded.detail(row))),
      });
    }
    return { headers: out, listed, read, kindsOfSession };
  } finally {
    index.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

describe("the session header from the index is the loaded session's", () => {
  it('for every bundled sample session (subagents, sidechains, background shells, errors)', async () => {
    const { headers } = await headersOf(samples);
    expect(headers.length).toBeGreaterThan(20);
    for (const h of headers) expect(h.fromIndex, h.ref).toBe(h.fromSession);
    // the samples hold what the index has to rebuild: subagents, their links, background shells
    const parsed = headers.map((h) => JSON.parse(h.fromIndex) as { subagents: unknown[]; shells: object });
    expect(parsed.some((h) => h.subagents.length > 0)).toBe(true);
    expect(parsed.some((h) => Object.keys(h.shells).length > 0)).toBe(true);
  }, 60_000);

  it('for every bundled Codex and Gemini fixture session (a line may hold several records there)', async () => {
    const homes = [
      ...foldersIn(join(fixtures, 'codex')),
      ...foldersIn(join(fixtures, 'gemini')).map((d) => (existsSync(join(d, '.gemini')) ? join(d, '.gemini') : d)),
    ];
    let sessions = 0;
    for (const home of homes) {
      const { headers } = await headersOf(home);
      sessions += headers.length;
      for (const h of headers) expect(h.fromIndex, h.ref).toBe(h.fromSession);
    }
    expect(sessions).toBeGreaterThan(20);
  }, 60_000);

  describe.skipIf(sharedHomes.length === 0)(
    sharedHomes.length === 0
      ? 'over ../shared (skipped: not present)'
      : `over ../shared (${fullTests ? 'every session' : 'sessions showing every kind of record each home holds'})`,
    () => {
      for (const home of sharedHomes) {
        it(home.slice(shared.length + 1), async () => {
          const { headers, listed, read, kindsOfSession } = await headersOf(home, true);
          // a home lists sessions, unless it holds none: only empty prompt logs (`[]`, a Gemini project never chatted in)
          if (listed.length === 0)
            expect(filesUnder(home).filter((f) => readFileSync(f, 'utf8').trim() !== '[]')).toEqual([]);
          else expect(headers.length).toBeGreaterThan(0);
          for (const h of headers) expect(h.fromIndex, h.ref).toBe(h.fromSession);
          // the sessions read show every kind, client version, model and size class the home's sessions show
          const kindsIn = (sessions: typeof listed) => new Set(sessions.flatMap((s) => [...kindsOfSession(s)]));
          const all = kindsIn(listed);
          const shown = kindsIn(read);
          expect([...all].filter((kind) => !shown.has(kind))).toEqual([]);
          if (!home.includes('gemini')) {
            // Claude Code, Codex: every record names the client's version, every reply its model
            expect([...all].some((kind) => kind.startsWith('(version '))).toBe(true);
            expect([...all].some((kind) => kind.startsWith('(model '))).toBe(true);
          }
        }, 120_000);
      }
    },
  );
});
