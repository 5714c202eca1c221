/**
 * The sessions list's prompt count (`records.is_prompt`, folded by session-scan.ts) is the loaded session's
 * (`counts.prompts`) and its timeline's prompt events: core's one rule (`isPrompt`). The list once left out blank
 * prompts (an empty or whitespace message, an image without text), which the timeline shows, and counted the prompts of
 * one placeholder uuid once where a load keeps those that differ (`CopyFilter`): two wild sessions differed. The
 * list counts a resume's or fork's own prompts: with those it copied from an earlier session, the loaded session's.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { assistantText, basesOf, prompt } from '@agentdash/testing/synthetic';
import { afterEach, describe, expect, it } from 'vitest';
import { copiedPromptsOf } from '../test/copied-prompts.js';
import { openIndex } from './index.js';

const SID = '6c1d5b64-2e3f-4a7b-8c9d-0e1f2a3b4c5d';
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const base = basesOf(SID);
let clock = 0;
const user = (uuid: string, content: string | readonly unknown[], second = ++clock) =>
  prompt(base(uuid, null, second), content);
const assistant = (uuid: string, id: string) => assistantText(base(uuid, null, ++clock), id, '');
const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };

/** Prompts every way a user can send one that has no text, and prompts of one placeholder uuid (one a copy). */
function plant(): string {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-prompt-count-'));
  const home = join(dir, 'claude-home');
  const project = join(home, 'projects', '-home-user-proj');
  mkdirSync(project, { recursive: true });
  const twice = 50;
  const lines = [
    user(uid(1), 'Hello'),
    assistant(uid(2), 'msg_1'),
    user(uid(3), ''),
    user(uid(4), '  \n\t '),
    user(uid(5), [image]),
    user(uid(6), [{ type: 'text', text: '' }]),
    user(uid(7), [{ type: 'text', text: '   ' }, image]),
    // a hand-made file's placeholder uuid: two prompts that differ, and a copy of the second
    user('placeholder', 'first'),
    user('placeholder', 'second', twice),
    user('placeholder', 'second', twice),
    // hidden: not prompts by any count
    user(uid(8), '<command-name>/clear</command-name>'),
    user(uid(9), '[Request interrupted by user]'),
  ];
  writeFileSync(join(project, `${SID}.jsonl`), `${lines.join('\n')}\n`);
  return home;
}

/**
 * Each session of a home: the list's count, the loaded session's, its timeline's prompt events, the header's. The index
 * is refreshed first (a copy of the run's index of a ../shared home finds nothing new).
 */
async function countsOf(home: string, dbPath: string) {
  const index = openIndex({ dbPath });
  try {
    await index.refresh([home]);
    const out: { ref: string; list: number; loaded: number; events: number; header: number | undefined }[] = [];
    for (const row of index.listSessions()) {
      const session = await index.loadSession(row.ref);
      out.push({
        ref: row.ref,
        // its own prompts: those a resume or fork copied count in the session they come from
        list: row.prompts + (await copiedPromptsOf(index, row.ref, session)),
        loaded: session.counts.prompts,
        events: session.events.filter((e) => e.kind === 'prompt').length,
        header: index.sessionHeader(row.key)?.counts.prompts,
      });
    }
    return out;
  } finally {
    index.close();
  }
}

describe("the list's prompt count is the loaded session's", () => {
  it('a planted session: blank, whitespace and image-only prompts count; differing placeholder prompts each once', async () => {
    const home = plant();
    const counts = await countsOf(home, join(dir ?? '', 'index.sqlite'));
    expect(counts).toHaveLength(1);
    const [c] = counts;
    // the timeline shows eight prompt events: Hello, five without text, and the two differing placeholder ones
    expect(c?.events).toBe(8);
    expect(c).toMatchObject({ list: 8, loaded: 8, header: 8 });
  });

  const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
  const dirsIn = (d: string) => (existsSync(d) ? readdirSync(d).map((name) => join(d, name)) : []);
  const homes = [
    join(shared, 'wild', 'claude-home'),
    ...dirsIn(join(shared, 'wild-agents', 'codex')),
    ...dirsIn(join(shared, 'wild-agents', 'gemini')),
  ].filter((home) => existsSync(home) && statSync(home).isDirectory());
  // The corpus homes' list counts are checked with the rest of their summaries (corpus.test.ts).
  describe.skipIf(homes.length === 0)(
    homes.length === 0 ? 'over ../shared wild homes (skipped: not present)' : 'over ../shared wild homes',
    () => {
      for (const home of homes) {
        it(home.slice(shared.length + 1), async () => {
          dir = mkdtempSync(join(tmpdir(), 'agentdash-prompt-count-'));
          // the run's index of this read-only home (built once per run, as a cold refresh builds it)
          await copyOfIndex([home], join(dir, 'index.sqlite'));
          const counts = await countsOf(home, join(dir, 'index.sqlite'));
          // (a wild Gemini folder may hold no session AgentDash reads)
          if (home.endsWith('claude-home')) expect(counts.length).toBeGreaterThan(100);
          const differ = counts.filter((c) => c.list !== c.loaded || c.events !== c.loaded || c.header !== c.loaded);
          expect(differ).toEqual([]);
        }, 120_000);
      }
    },
  );
});
