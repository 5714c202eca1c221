import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpIndex } from '@agentdash/testing/dump';
import { fullTests } from '@agentdash/testing/shared';
import { assistantText, basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrng } from '../../../test/prng.js';
import { openIndex } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home/projects');
/** Every subagent layout (flat 2.0.x agent files, 2.1 `subagents/` folders) and sidechains. */
const PROJECTS = ['-home-user-proj-subagents', '-home-user-proj-interaction', '-home-user-proj-search'];

let dir: string;
let finished: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-tail-'));
  finished = join(dir, 'finished');
  for (const project of PROJECTS)
    cpSync(join(samples, project), join(finished, 'projects', project), { recursive: true });
  // Non-ASCII text in every searchable field, so random cuts fall inside multi-byte characters.
  const sid = '99999999-2222-4333-8444-555555555555';
  const b = basesOf(sid);
  writeLines(join(finished, 'projects', '-home-user-proj-unicode', `${sid}.jsonl`), [
    prompt(b('u1', null, 0), 'Prüfe die Größe — 日本語のテキスト ✓ 🙂'),
    toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_u1', 'Bash', { command: 'echo "ünïcødé 🚀"' }),
    toolResult(b('r1', 'a1', 2), 'toolu_u1', 'ünïcødé 🚀 — fertig', false),
    assistantText(b('a2', 'r1', 3), 'msg_2', 'Erledigt: 完了 ✓'),
  ]);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** How many cuts of each kind a run made: anywhere, before a newline, inside a character; files first written empty. */
interface Cuts {
  anywhere: number;
  beforeNewline: number;
  insideChar: number;
  emptyFirst: number;
}

/**
 * Write the finished files into `live` in random chunks (cut anywhere, inside characters too; new files sometimes
 * appear empty first), interleaved across files, refreshing the live index after every step or two.
 */
async function writeLive(seed: number, live: string, dbPath: string): Promise<{ refreshes: number; cuts: Cuts }> {
  const prng = createPrng(seed);
  const made: Cuts = { anywhere: 0, beforeNewline: 0, insideChar: 0, emptyFirst: 0 };
  const pending = filesUnder(finished).map((file) => {
    const bytes = readFileSync(file);
    const cuts = new Set<number>();
    const pieces = 1 + prng.int(4);
    // Cut anywhere, right before a newline (a complete line without its newline) or inside a UTF-8 character.
    const newlines: number[] = [];
    const insideChar: number[] = [];
    bytes.forEach((byte, i) => {
      if (byte === 0x0a) newlines.push(i);
      else if ((byte & 0xc0) === 0x80) insideChar.push(i);
    });
    for (let i = 0; i < pieces; i += 1) {
      const kind = prng.int(3);
      if (kind === 1 && newlines.length > 0) cuts.add(prng.pick(newlines));
      else if (kind === 2 && insideChar.length > 0) cuts.add(prng.pick(insideChar));
      else cuts.add(prng.int(bytes.length));
    }
    if (prng.int(3) === 0) cuts.add(0);
    const sorted = [...cuts].sort((a, b) => a - b);
    // the cuts made (two picks of one place are one cut), by where they fall
    for (const at of sorted) {
      const byte = bytes[at] ?? 0;
      if (at === 0) made.emptyFirst += 1;
      else if (byte === 0x0a) made.beforeNewline += 1;
      else if ((byte & 0xc0) === 0x80) made.insideChar += 1;
      else made.anywhere += 1;
    }
    const chunks = [...sorted, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : (sorted[i - 1] ?? 0), end));
    return { target: join(live, relative(finished, file)), chunks };
  });
  const index = openIndex({ dbPath });
  let refreshes = 0;
  try {
    while (pending.length > 0) {
      const steps = 1 + prng.int(2);
      for (let s = 0; s < steps && pending.length > 0; s += 1) {
        const at = prng.int(pending.length);
        const file = pending[at];
        if (file === undefined) break;
        mkdirSync(dirname(file.target), { recursive: true });
        appendFileSync(file.target, file.chunks.shift() ?? Buffer.alloc(0));
        if (file.chunks.length === 0) pending.splice(at, 1);
      }
      await index.refresh([live]);
      refreshes += 1;
    }
  } finally {
    index.close();
  }
  return { refreshes, cuts: made };
}

/**
 * The seeds run: two by default, whose cuts hold every kind (checked below), all five under `fullTests`
 * (`npm run test:full`).
 */
const SEEDS = fullTests ? [1, 2, 3, 4, 5] : [3, 4];

describe('a live index equals a batch index of the finished files', () => {
  it.each(SEEDS)('seed %i: every table is the same after random-chunk tails', async (seed) => {
    const live = join(dir, `live-${seed}`);
    const liveDb = join(dir, `live-${seed}.sqlite`);
    const { refreshes, cuts } = await writeLive(seed, live, liveDb);
    expect(refreshes).toBeGreaterThan(10);
    // every kind of cut, in each seed
    expect(Object.entries(cuts).filter(([, n]) => n === 0)).toEqual([]);
    expect(filesUnder(live).map((f) => statSync(f).size)).toEqual(filesUnder(finished).map((f) => statSync(f).size));
    const batchDb = join(dir, `batch-${seed}.sqlite`);
    const batch = openIndex({ dbPath: batchDb });
    await batch.refresh([live]);
    batch.close();
    const a = dumpIndex(liveDb);
    const b = dumpIndex(batchDb);
    const differences: Record<string, { liveOnly: string[]; batchOnly: string[] }> = {};
    for (const table of Object.keys(b) as (keyof typeof b)[]) {
      const liveOnly = a[table].filter((row) => !b[table].includes(row));
      const batchOnly = b[table].filter((row) => !a[table].includes(row));
      if (liveOnly.length + batchOnly.length + a[table].length - b[table].length !== 0) {
        differences[table] = { liveOnly, batchOnly };
      }
    }
    expect(differences).toEqual({});
    expect(b.sessions.length).toBe(10);
    expect(b.sessions.filter((s) => s.includes('"orphan-'))).toEqual([]);
  });
});
