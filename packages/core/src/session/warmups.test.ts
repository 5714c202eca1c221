/**
 * Claude Code 2.0.x pre-warms its subagents' prompt caches at a session's start (FORMAT.md §11): an agent file whose
 * only request is a "Warmup" prompt (2.0.76; 2.0.50 records no prompt) and its answer. Those are not subagents — not
 * listed, not counted, not drawn — but their usage is the session's, and the session counts them (`counts.warmups`).
 * Bundled: a whole 2.0.50 session (`fixtures/claude-warmups`) and the samples' 2.0.76 subagents session; the corpus
 * check reads `truth.jsonl` (which marks each warm-up request) when `../shared/corpus` is present.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, hasCorpus, loadSessions, repoRoot, samplesHome } from '../../test/helpers.js';
import { discoverFiles, groupSessions } from '../index.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';
import { isWarmup } from './thread-tally.js';

const fixture2050 = join(
  repoRoot,
  'packages/core/test/fixtures/claude-warmups/2.0.50/projects/-home-user-proj-subagents',
);
const samples2076 = join(samplesHome, 'projects/-home-user-proj-subagents');

/** Each session of a folder as a load and the stream's head see it: subagent files, warm-ups, response count. */
async function shapesOf(folder: string) {
  const { files } = await discoverFiles([folder]);
  const shapes: Record<string, unknown> = {};
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    const stream = await openSessionStream(group);
    const tail = await stream.tail();
    shapes[session.id.slice(0, 8)] = {
      subagents: session.subagents.map((s) => basename(s.file ?? s.key)).sort(),
      streamed: stream.subagents.map((s) => s.key).sort(),
      warmups: [session.counts.warmups, tail.counts.warmups],
      responses: Object.values(session.usageByModel).reduce((n, u) => n + u.responses, 0),
    };
  }
  return shapes;
}

describe('warm-ups are not subagents', () => {
  it('2.0.50: two prompt-less warm-up files, three subagents; the warm-ups billed', async () => {
    expect(await shapesOf(fixture2050)).toEqual({
      '9270ae20': {
        subagents: ['agent-c1185642.jsonl', 'agent-c57c15a2.jsonl', 'agent-dde3e0a2.jsonl'],
        streamed: ['c1185642', 'c57c15a2', 'dde3e0a2'],
        warmups: [2, 2],
        // Every response of its six files, the two warm-ups' included.
        responses: 15,
      },
    });
  });

  it('2.0.76: the "Warmup" files of the samples are warm-ups', async () => {
    const shapes = await shapesOf(samples2076);
    expect(shapes['3d438771']).toEqual({
      subagents: ['agent-a351702.jsonl', 'agent-a997c70.jsonl', 'agent-aa4a751.jsonl', 'agent-abc0ab0.jsonl'],
      streamed: ['a351702', 'a997c70', 'aa4a751', 'abc0ab0'],
      warmups: [2, 2],
      responses: expect.any(Number),
    });
  });

  it('a thread a call started, or one that called a tool, or asked something else, is a subagent', () => {
    const tally = (prompt: string | undefined) => ({
      prompts: prompt === undefined ? 0 : 1,
      responses: 1,
      firstPrompt: prompt === undefined ? undefined : { text: prompt, stamp: undefined },
    });
    expect([
      isWarmup({ started: false, tally: tally('Warmup'), toolCalls: 0 }),
      isWarmup({ started: false, tally: tally(undefined), toolCalls: 0 }),
      isWarmup({ started: true, tally: tally('Warmup'), toolCalls: 0 }),
      isWarmup({ started: false, tally: tally('Warmup'), toolCalls: 1 }),
      isWarmup({ started: false, tally: tally('Warmup please'), toolCalls: 0 }),
      isWarmup({ started: false, tally: { ...tally('Warmup'), responses: 2 }, toolCalls: 0 }),
      // the client exited before the answer was written (2.0.76's probe); no prompt and no answer is no request
      isWarmup({ started: false, tally: { ...tally('Warmup'), responses: 0 }, toolCalls: 0 }),
      isWarmup({ started: false, tally: { ...tally(undefined), responses: 0 }, toolCalls: 0 }),
    ]).toEqual([true, true, false, false, false, false, true, false]);
  });
});

interface Truth {
  readonly kind: string;
}

const versions = ['2.0.50', '2.0.76'] as const;
describe.skipIf(!hasCorpus)('warm-ups of the corpus (truth.jsonl marks them)', () => {
  for (const version of versions) {
    it(`${version}: every warm-up file, and only those, is left out of subagents`, async () => {
      const projects = join(corpusDir, version, 'claude-home/projects');
      const truth = readFileSync(join(corpusDir, version, 'truth.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Truth);
      // Each warm-up request of truth.jsonl has a file of its own (2.0.76's probe wrote two without their answer).
      const warmups = truth.filter((t) => t.kind === 'warmup').length;
      const agentFiles = readdirSync(projects).flatMap((dir) =>
        readdirSync(join(projects, dir)).filter((name) => name.startsWith('agent-')),
      ).length;
      const expected = { subagents: agentFiles - warmups, warmups };
      const sessions = await loadSessions(projects);
      const got = {
        subagents: sessions.reduce((n, s) => n + s.subagents.length, 0),
        warmups: sessions.reduce((n, s) => n + s.counts.warmups, 0),
      };
      expect(got).toEqual(expected);
      expect(expected.warmups).toBeGreaterThan(50);
    });
  }
});
