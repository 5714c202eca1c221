/**
 * A subagent's records its parent's file copies (Claude Code 2.1.x's `agent_progress`) are its thread in the index
 * when its file is missing, as core's `loadSession` reads them (core's `EmbeddedThreads`, write/copy-rows.ts); and
 * whatever order its file comes or goes in, the index ends as a fresh one of the same files (write/copy-reads.ts).
 * Fixture: core's claude-progress (trimmed from ../shared/wild entire-cli-19), `without-file` and `with-file`.
 */
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpIndex } from '@agentdash/testing/dump';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = resolve(repoRoot, 'packages/core/test/fixtures/claude-progress');
const SESSION = '70c88cff-cb35-404f-a974-2a08bab4e4bc';
const PROJECT = 'projects/-Users-alex-workspace-cli';
const AGENT_FILE = join(PROJECT, SESSION, 'subagents/agent-ae66507.jsonl');
const MAIN_FILE = join(PROJECT, `${SESSION}.jsonl`);

let dir: string;
const opened: AgentIndex[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-progress-'));
});
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
  rmSync(dir, { recursive: true, force: true });
});

function indexAt(name: string): AgentIndex {
  const index = openIndex({ dbPath: join(dir, `${name}.sqlite`) });
  opened.push(index);
  return index;
}

/** The index at `name` equals a fresh index of the same home (archiving off in both). */
async function expectFresh(name: string, home: string): Promise<void> {
  const fresh = indexAt(`fresh-${opened.length}`);
  fresh.setArchiving(false);
  await fresh.refresh([home]);
  expect(dumpIndex(join(dir, `${name}.sqlite`))).toEqual(dumpIndex(join(dir, `fresh-${opened.length - 1}.sqlite`)));
}

/** Another session's main file (one prompt), in a project folder read after the fixture's. */
function otherSession(home: string): string {
  const id = '11111111-2222-4333-8444-555555555555';
  const path = join(home, `projects/zz-other/${id}.jsonl`);
  const record = {
    type: 'user',
    sessionId: id,
    uuid: '11111111-0000-4000-8000-000000000001',
    parentUuid: null,
    timestamp: '2026-01-30T10:00:00.000Z',
    cwd: '/tmp/other',
    message: { role: 'user', content: 'another session' },
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(record)}\n`);
  return path;
}

/**
 * A refresh of `home` stopped (an error thrown) before it reads another session's new file, after the changes
 * `change` made to the disk; then the index opened again (what a refresh keeps in memory is gone) and refreshed.
 */
async function interrupted(home: string, change: () => void): Promise<AgentIndex> {
  const live = indexAt('live');
  live.setArchiving(false);
  await live.refresh([home]);
  change();
  const other = otherSession(home);
  const stop = async (path: string) => {
    if (path === other) throw new Error('stopped');
  };
  await expect(live.refresh([home], { beforeFile: stop })).rejects.toThrow('stopped');
  live.close();
  const again = indexAt('live');
  await again.refresh([home]);
  return again;
}

/** What the index says of a home's one session, its paths and places (which file, which line) left out. */
async function figures(home: string, parseWorkers?: number) {
  const index = indexAt(`figures-${opened.length}`);
  await index.refresh([home], parseWorkers === undefined ? {} : { parseWorkers });
  const [session, ...others] = index.listSessions({});
  expect(others).toEqual([]);
  const ref = session?.id ?? '';
  // Facts of the files (which there are, their lines): the subagent's file is one more.
  const { key: _key, projectDir: _dir, files: _files, subagents: _subagents, ...summary } = session ?? {};
  const header = index.sessionHeader(ref);
  const hits = await index.search('review');
  return {
    summary,
    header: header && { ...header, counts: { ...header.counts, records: undefined } },
    calls: index.calls({}).map(({ file: _file, line: _line, ...call }) => call),
    usage: index.usageResponses({}).map(({ context: _context, ...response }) => response),
    search: hits.map((hit) => [hit.kind, hit.agentId, hit.snippet]),
  };
}

describe("a subagent's records copied into its parent's file (agent_progress)", () => {
  it("are its thread when its file is missing: the index says what it says with the file (the writer's read)", async () => {
    const withFile = await figures(join(fixtures, 'with-file'), 0);
    const withoutFile = await figures(join(fixtures, 'without-file'), 0);
    // Before: 1 call instead of 8, no subagent, 1 response instead of 3.
    expect(withFile.calls).toHaveLength(8);
    expect(withFile.header?.subagents.map((s) => [s.agentId, s.linkedBy, s.toolCalls])).toEqual([
      ['ae66507', 'agent-id', 7],
    ]);
    expect([withFile.usage.length, withFile.search.filter((hit) => hit[1] === 'ae66507').length]).toEqual([4, 8]);
    expect(withoutFile).toEqual(withFile);
  });

  it("and in a parse worker's read", async () => {
    expect(await figures(join(fixtures, 'without-file'), 1)).toEqual(await figures(join(fixtures, 'with-file'), 0));
  });

  it('the copies stored are dropped when the file comes (read again), taken when it goes, as a fresh index', async () => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, 'without-file'), home, { recursive: true });
    const live = indexAt('live');
    live.setArchiving(false);
    await live.refresh([home]);
    expect(live.listSessions({})[0]?.toolCalls).toBe(8);

    // The subagent's file comes after its copies were taken: the index of both files is a fresh index's.
    cpSync(join(fixtures, 'with-file', AGENT_FILE), join(home, AGENT_FILE), { recursive: true });
    await live.refresh([home]);
    const fresh = indexAt('fresh');
    fresh.setArchiving(false);
    await fresh.refresh([home]);
    expect(dumpIndex(join(dir, 'live.sqlite'))).toEqual(dumpIndex(join(dir, 'fresh.sqlite')));
    expect(live.listSessions({})[0]?.toolCalls).toBe(8);

    // It goes again (not archived): the copies are its thread again, as in a fresh index of the main file alone.
    rmSync(join(home, PROJECT, SESSION), { recursive: true });
    await live.refresh([home]);
    const again = indexAt('again');
    again.setArchiving(false);
    await again.refresh([home]);
    expect(dumpIndex(join(dir, 'live.sqlite'))).toEqual(dumpIndex(join(dir, 'again.sqlite')));
    expect(live.listSessions({})[0]?.toolCalls).toBe(8);
  });

  it('a file holding copies that grows is read from its end: a copy repeated in its new bytes counts once', async () => {
    const lines = readFileSync(join(fixtures, 'without-file', MAIN_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    // Line 8 again, under another uuid of its own: the same copy (its inner uuid) written twice.
    const repeat = (lines[7] ?? '').replace(
      '35d604c8-d95b-419d-9b5a-5457987e1cbb',
      '35d604c8-0000-4000-8000-000000000000',
    );
    const text = (some: readonly string[]) => some.map((l) => `${l}\n`).join('');
    const main = join(dir, 'home', MAIN_FILE);
    mkdirSync(dirname(main), { recursive: true });
    writeFileSync(main, text(lines.slice(0, 10)));
    const live = indexAt('live');
    await live.refresh([join(dir, 'home')]);
    const appended = text([...lines.slice(10, 12), repeat, ...lines.slice(12)]);
    appendFileSync(main, appended);
    // Only the new bytes are parsed (before, the whole file, at every append: quadratic for a live session).
    expect((await live.refresh([join(dir, 'home')])).bytesParsed).toBe(Buffer.byteLength(appended));
    const fresh = indexAt('fresh');
    await fresh.refresh([join(dir, 'home')]);
    expect(dumpIndex(join(dir, 'live.sqlite'))).toEqual(dumpIndex(join(dir, 'fresh.sqlite')));
    expect(live.listSessions({})[0]?.toolCalls).toBe(8);
  });

  it("titles a session whose main file gives no prompt with its copied thread's prompt, as core does", async () => {
    const lines = readFileSync(join(fixtures, 'without-file', MAIN_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const main = join(dir, 'home', MAIN_FILE);
    mkdirSync(dirname(main), { recursive: true });
    // Without its two user records: the main file holds no prompt.
    writeFileSync(
      main,
      lines
        .slice(2)
        .map((l) => `${l}\n`)
        .join(''),
    );
    const index = indexAt('untitled');
    await index.refresh([join(dir, 'home')]);
    const [session] = index.listSessions({});
    const loaded = await index.loadSession(session?.ref ?? '');
    expect(loaded.title?.slice(0, 40)).toBe('Read and follow the instructions in .cla');
    expect([session?.title, session?.titleSource]).toEqual([loaded.title, loaded.titleSource]);
  });

  it("a refresh stopped after the subagent's file came is completed by the next: as a fresh index", async () => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, 'without-file'), home, { recursive: true });
    // Before: the subagent listed twice (its file's thread and the copies), 36 calls instead of 29.
    const live = await interrupted(home, () => cpSync(join(fixtures, 'with-file', AGENT_FILE), join(home, AGENT_FILE)));
    await expectFresh('live', home);
    const session = live.listSessions({}).find((s) => s.id === SESSION);
    expect(live.sessionHeader(session?.ref ?? '')?.subagents.map((s) => s.agentId)).toEqual(['ae66507']);
  });

  it("and one stopped after the subagent's file went (not archived)", async () => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, 'with-file'), home, { recursive: true });
    // Before: the copies not taken, the subagent's thread gone (1 call instead of 8).
    const live = await interrupted(home, () => rmSync(join(home, PROJECT, SESSION), { recursive: true }));
    await expectFresh('live', home);
    expect(live.listSessions({}).find((s) => s.id === SESSION)?.toolCalls).toBe(8);
  });

  it("a main file moved to another session is read again there: alone, or beside its subagent's file", async () => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, 'with-file'), home, { recursive: true });
    const live = indexAt('live');
    live.setArchiving(false);
    await live.refresh([home]);
    // Moved alone to another project folder: its copies are its subagent's thread there (before: 1 call, not 8).
    const moved = join(home, 'projects/moved', `${SESSION}.jsonl`);
    mkdirSync(dirname(moved), { recursive: true });
    renameSync(join(home, MAIN_FILE), moved);
    await live.refresh([home]);
    await expectFresh('live', home);
    // And back beside its subagent's file: the copies are not (before: the subagent listed twice).
    renameSync(moved, join(home, MAIN_FILE));
    await live.refresh([home]);
    await expectFresh('live', home);
  });

  it('a file holding copies that grows makes its session live, as any file appended to', async () => {
    const lines = readFileSync(join(fixtures, 'without-file', MAIN_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const text = (some: readonly string[]) => some.map((l) => `${l}\n`).join('');
    const main = join(dir, 'home', MAIN_FILE);
    mkdirSync(dirname(main), { recursive: true });
    writeFileSync(main, text(lines.slice(0, 10)));
    const live = indexAt('live');
    await live.refresh([join(dir, 'home')]);
    expect(live.listSessions({})[0]?.isLive).toBe(false);
    // Before: read whole again for its copies, the file was never taken as appended to.
    appendFileSync(main, text(lines.slice(10)));
    await live.refresh([join(dir, 'home')]);
    expect(live.listSessions({})[0]?.isLive).toBe(true);
  });

  it("a file held at its last complete version is read again from the archive when the subagent's file comes", async () => {
    const lines = readFileSync(join(fixtures, 'without-file', MAIN_FILE), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const text = (some: readonly string[]) => some.map((l) => `${l}\n`).join('');
    const home = join(dir, 'home');
    const main = join(home, MAIN_FILE);
    mkdirSync(dirname(main), { recursive: true });
    writeFileSync(main, text(lines));
    const live = indexAt('live');
    live.setArchiving(true);
    await live.refresh([home]);
    // Cut short on disk: held at the version read (its one issue says so).
    writeFileSync(main, text(lines.slice(0, 12)));
    await live.refresh([home]);
    expect(live.listSessions({})[0]?.issues).toBe(1);
    cpSync(join(fixtures, 'with-file', AGENT_FILE), join(home, AGENT_FILE));
    await live.refresh([home]);
    // Before: the subagent listed twice (its file's thread and the held version's copies), 8 issues.
    const [session] = live.listSessions({});
    expect([session?.toolCalls, session?.issues]).toEqual([8, 1]);
    expect(live.sessionHeader(session?.ref ?? '')?.subagents.map((s) => s.agentId)).toEqual(['ae66507']);
  });
});
