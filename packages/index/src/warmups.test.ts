/**
 * The client's cache warm-ups (core's `isWarmup`, Claude Code 2.0.x) are not subagents in the stored summaries
 * (`sessions.subagents`) nor in the header read from the stored rows, as a load leaves them out; their usage is the
 * session's. Bundled: a whole 2.0.50 session (core's `claude-warmups` fixture, warm-ups without a prompt) and the
 * samples' 2.0.76 subagents session ("Warmup" prompts); the corpus check reads `truth.jsonl` when
 * `../shared/corpus` is present.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = resolve(repoRoot, 'packages/core/test/fixtures');
const home2050 = join(fixtures, 'claude-warmups/2.0.50/projects/-home-user-proj-subagents');
const home2076 = join(fixtures, 'claude/claude-home/projects/-home-user-proj-subagents');
const corpusRoot = resolve(repoRoot, '../shared/corpus');
const corpusVersions = ['2.0.50', '2.0.76'].filter((v) => existsSync(join(corpusRoot, v, 'truth.jsonl')));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-warmups-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Each session's subagents and warm-ups as the list, the stored header and a load give them, and its responses. */
async function figuresOf(index: AgentIndex, paths: readonly string[]) {
  const figures: Record<string, unknown> = {};
  for (const s of index.listSessions({ paths: [...paths] })) {
    const header = index.sessionHeader(s.key);
    const loaded = await index.loadSession(s.key);
    figures[s.id.slice(0, 8)] = {
      subagents: [s.subagents, header?.subagents.length, loaded.subagents.length],
      warmups: [s.warmups, header?.counts.warmups, loaded.counts.warmups],
      responses: [s.usage.responses, Object.values(loaded.usageByModel).reduce((n, u) => n + u.responses, 0)],
      // the subagents' part of them: a warm-up's are the session's own (a review: 9 for 7 in 2.0.50's session)
      subagentResponses: s.subagentUsage.responses,
    };
  }
  return figures;
}

describe('warm-ups in the index', () => {
  it('are not counted as subagents, by the list, the stored header or a load; their responses are', async () => {
    const index = openIndex({ dbPath: join(dir, 'bundled.sqlite') });
    try {
      await index.refresh([home2050, home2076]);
      const figures = await figuresOf(index, [home2050, home2076]);
      expect({ '9270ae20': figures['9270ae20'], '3d438771': figures['3d438771'] }).toEqual({
        // 2.0.50: two warm-up files without a prompt; 15 responses, theirs included.
        '9270ae20': { subagents: [3, 3, 3], warmups: [2, 2, 2], responses: [15, 15], subagentResponses: 7 },
        // 2.0.76: two "Warmup" files.
        '3d438771': {
          subagents: [4, 4, 4],
          warmups: [2, 2, 2],
          responses: [expect.any(Number), expect.any(Number)],
          subagentResponses: 9,
        },
      });
      const r = figures['3d438771'] as { responses: [number, number] };
      expect(r.responses[0]).toBe(r.responses[1]);
    } finally {
      index.close();
    }
  });
});

interface Truth {
  readonly kind: string;
  readonly messageId?: string;
  readonly usage: Record<string, number> | null;
}

describe.skipIf(corpusVersions.length === 0)('warm-ups of the corpus in the index (truth.jsonl)', () => {
  for (const version of corpusVersions) {
    it(`${version}: the list counts no warm-up as a subagent; its usage is every written response's`, async () => {
      const projects = join(corpusRoot, version, 'claude-home/projects');
      const truth = readFileSync(join(corpusRoot, version, 'truth.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Truth);
      // Each warm-up request of truth.jsonl has a file of its own (2.0.76's probe wrote two without their answer);
      // every response written to a transcript.
      const warmups = truth.filter((t) => t.kind === 'warmup').length;
      let agentFiles = 0;
      const written = new Set<string>();
      for (const folder of readdirSync(projects)) {
        for (const name of readdirSync(join(projects, folder))) {
          const ids = readFileSync(join(projects, folder, name), 'utf8')
            .split('\n')
            .filter((l) => l.trim() !== '')
            .flatMap((l) => (JSON.parse(l) as { message?: { id?: string } }).message?.id ?? []);
          for (const id of ids) written.add(id);
          if (name.startsWith('agent-')) agentFiles++;
        }
      }
      const index = openIndex({ dbPath: join(dir, `${version}.sqlite`) });
      try {
        await index.refresh([projects]);
        const sessions = index.listSessions({ paths: [projects] });
        expect({
          subagents: sessions.reduce((n, s) => n + s.subagents, 0),
          warmups: sessions.reduce((n, s) => n + (s.warmups ?? 0), 0),
        }).toEqual({ subagents: agentFiles - warmups, warmups });
        // The warm-ups stay billed: the sessions' usage is what the model served for every written response.
        const served = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
        const seen = new Set<string>();
        for (const t of truth) {
          if (t.messageId === undefined || t.usage === null || !written.has(t.messageId) || seen.has(t.messageId))
            continue;
          seen.add(t.messageId);
          served.input += t.usage.input_tokens ?? 0;
          served.output += t.usage.output_tokens ?? 0;
          served.cacheWrite += t.usage.cache_creation_input_tokens ?? 0;
          served.cacheRead += t.usage.cache_read_input_tokens ?? 0;
        }
        const sum = (f: (u: (typeof sessions)[number]['usage']) => number) =>
          sessions.reduce((n, s) => n + f(s.usage), 0);
        expect({
          input: sum((u) => u.inputTokens),
          output: sum((u) => u.outputTokens),
          cacheWrite: sum((u) => u.cacheCreationInputTokens),
          cacheRead: sum((u) => u.cacheReadInputTokens),
        }).toEqual(served);
        expect(served.input).toBeGreaterThan(0);
      } finally {
        index.close();
      }
    });
  }
});
