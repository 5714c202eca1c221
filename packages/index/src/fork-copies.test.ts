/**
 * A session that copied an earlier one's conversation (Claude Code ≤ 1.0.117 `--resume`/`--continue`, `--fork-session`
 * later: the copies keep their uuids, message ids and times) counts only its own records in its prompts, messages,
 * wall time and time partition: in the list, in a load (`show`), in the header and in a stream. Its own records'
 * figures are those of the same session with the copied records taken out of its file; the session it copied keeps its
 * figures, as without the copy. Before, the copy's list said 12 messages over 27.6 s for its own 3 over 2.3 s.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionStream } from '@agentdash/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const samples = resolve(repoRoot, 'packages/cli/samples/claude-home/projects/-home-user-proj-continuation');
const corpusRoot = resolve(repoRoot, '../shared/corpus');
const corpusFolders = existsSync(corpusRoot)
  ? readdirSync(corpusRoot)
      .map((v) => join(corpusRoot, v, 'claude-home', 'projects', '-home-user-proj-continuation'))
      .filter((f) => existsSync(f))
  : [];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** What a session's own records come to, everywhere it is counted. */
interface Figures {
  readonly prompts: number;
  readonly messages: number;
  readonly durationMs: number | undefined;
  readonly wallMs: number | undefined;
}

/** The list's figures of each session of a project folder copied into a home of its own, by session id. */
async function listed(folder: string, edit: (project: string) => void = () => {}) {
  const home = join(mkdtempSync(join(dir ?? tmpdir(), 'home-')), 'claude-home');
  const project = join(home, 'projects', basename(folder));
  cpSync(folder, project, { recursive: true });
  edit(project);
  const index = openIndex({ dbPath: join(home, '..', 'index.sqlite') });
  await index.refresh([home]);
  return { index, project };
}

/** Each listed session's reference and figures, by id. */
function figuresOf(index: AgentIndex): Map<string, { readonly ref: string; readonly figures: Figures }> {
  return new Map(
    index.listSessions().map((s) => [
      s.id as string,
      {
        ref: s.ref,
        figures: { prompts: s.prompts, messages: s.messages, durationMs: s.durationMs, wallMs: s.time?.wallMs },
      },
    ]),
  );
}

/** The figures a load, a stream and the header give: prompts and responses (the list's messages, synthetic ones aside). */
async function shownOf(index: AgentIndex, ref: string) {
  const session = await index.loadSession(ref);
  const stream: SessionStream = await index.streamSession(ref);
  for await (const _ of stream.events());
  for await (const _ of stream.calls());
  const tail = await stream.tail();
  const header = index.sessionHeader(ref);
  return {
    loaded: [session.counts.prompts, session.counts.assistantMessages],
    streamed: [tail.counts.prompts, tail.counts.assistantMessages],
    header: [header?.counts.prompts, header?.counts.assistantMessages],
  };
}

/** Every line of the file whose record's uuid is in `uuids` taken out. */
function withoutUuids(file: string, uuids: ReadonlySet<string>): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const kept = lines.filter((l) => {
    if (l.trim() === '') return false;
    const uuid = (JSON.parse(l) as { uuid?: string }).uuid;
    return uuid === undefined || !uuids.has(uuid);
  });
  writeFileSync(file, `${kept.join('\n')}\n`);
}

function uuidsOf(file: string): Set<string> {
  const out = new Set<string>();
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (l.trim() === '') continue;
    const uuid = (JSON.parse(l) as { uuid?: string }).uuid;
    if (uuid !== undefined) out.add(uuid);
  }
  return out;
}

/** The main files of the folder's sessions (`<id>.jsonl`), by id. */
function mainFiles(project: string): Map<string, string> {
  return new Map(
    readdirSync(project)
      .filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-') && statSync(join(project, f)).isFile())
      .map((f) => [f.slice(0, -'.jsonl'.length), join(project, f)]),
  );
}

async function checkFolder(folder: string) {
  dir ??= mkdtempSync(join(tmpdir(), 'agentdash-fork-copies-'));
  const { index, project } = await listed(folder);
  const all = figuresOf(index);
  const mains = mainFiles(project);
  const forks: { id: string; owner: string }[] = [];
  for (const [id, f] of all) {
    const owners = index.sessionCopies(f.ref).filter((c) => !c.sameSession);
    const owner = [...all.entries()].find(([, o]) => o.ref === owners[0]?.ref)?.[0];
    if (owner !== undefined) forks.push({ id, owner });
  }
  expect(forks.length).toBeGreaterThan(0);
  for (const { id, owner } of forks) {
    const forkFile = mains.get(id) as string;
    const ownerFile = mains.get(owner) as string;
    // The fork's own records: its file without the records the owner's file holds too, the owner's file gone.
    const own = await listed(folder, (p) => {
      withoutUuids(join(p, basename(forkFile)), uuidsOf(ownerFile));
      unlinkSync(join(p, basename(ownerFile)));
    });
    // The owner as it is without the fork.
    const alone = await listed(folder, (p) => unlinkSync(join(p, basename(forkFile))));
    const fork = all.get(id)?.figures;
    expect({ id, ...fork }).toEqual({ id, ...figuresOf(own.index).get(id)?.figures });
    expect({ owner, ...all.get(owner)?.figures }).toEqual({ owner, ...figuresOf(alone.index).get(owner)?.figures });
    // The wall time is the own records' first to last.
    expect(fork?.durationMs).toBe(fork?.wallMs);
    // show, a stream and the header count the same prompts and responses as the session without its copies.
    const shownFork = await shownOf(index, all.get(id)?.ref ?? '');
    const shownOwn = await shownOf(own.index, figuresOf(own.index).get(id)?.ref ?? '');
    expect({ id, ...shownFork }).toEqual({ id, ...shownOwn });
    expect(shownFork.loaded[0]).toBe(fork?.prompts);
    const shownOwner = await shownOf(index, all.get(owner)?.ref ?? '');
    const shownAlone = await shownOf(alone.index, figuresOf(alone.index).get(owner)?.ref ?? '');
    expect({ owner, ...shownOwner }).toEqual({ owner, ...shownAlone });
    own.index.close();
    alone.index.close();
  }
  index.close();
  return { all, forks };
}

describe("a copied session counts its own records' prompts, messages and time", () => {
  it('the bundled pair (a 1.0.128 fork): 1 prompt, 3 messages over 2.3 s; the original unchanged', async () => {
    const { all, forks } = await checkFolder(samples);
    expect(forks.map((f) => f.id.slice(0, 8))).toEqual(['f79d7a1d']);
    expect(all.get(forks[0]?.id ?? '')?.figures).toEqual({ prompts: 1, messages: 3, durationMs: 2298, wallMs: 2298 });
    expect(all.get(forks[0]?.owner ?? '')?.figures).toEqual({
      prompts: 4,
      messages: 12,
      durationMs: 27634,
      wallMs: 27634,
    });
  }, 60_000);

  describe.skipIf(corpusFolders.length === 0)(
    corpusFolders.length === 0 ? 'over ../shared/corpus (skipped: not present)' : 'over ../shared/corpus',
    () => {
      for (const folder of corpusFolders) {
        it(folder.slice(corpusRoot.length + 1).split('/')[0] ?? folder, async () => {
          await checkFolder(folder);
        }, 60_000);
      }
    },
  );
});
