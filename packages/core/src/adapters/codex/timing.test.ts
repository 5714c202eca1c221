import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { groupSessions } from '../../io/discover.js';
import type { AssistantRecord } from '../../model/record.js';
import { primaryDurationMs } from '../../model/tool-call.js';
import { loadSession } from '../../session/load-session.js';
import { waterfallOf } from '../../time/waterfall.js';
import { codexAdapter } from './adapter.js';

const bundled = resolve(repoRoot, 'packages/core/test/fixtures/codex');
const corpus = resolve(repoRoot, '../shared/corpus-agents/codex');
/** The one long 0.34 rollout of the wild set (Monotoba/OpenPrintKit, MIT), trimmed and bundled too. */
const opk34 = 'sessions/2025/11/01/rollout-2025-11-01T11-34-37-97b66f6c-a160-40e0-bd0f-1fdcbbb9498b.jsonl';
const wild34 = resolve(repoRoot, '../shared/wild-agents/codex/openprintkit-1', opk34);
const bundled34 = join(bundled, 'wild-0.34', opk34);

interface Served {
  readonly usage?: { readonly input_tokens: number; readonly output_tokens: number } | null;
  readonly callIds?: readonly string[];
  readonly items?: readonly { readonly callId?: string }[];
}

/** Each assistant record of a home's rollouts: its response (message id), usage and calls. */
async function responsesOf(home: string): Promise<AssistantRecord[]> {
  const { files } = await codexAdapter.discover(home);
  const out: AssistantRecord[] = [];
  for (const file of files) {
    await codexAdapter.streamRecords(
      file,
      (e) => {
        if (e.kind === 'record' && e.record.kind === 'assistant') out.push(e.record);
      },
      {},
    );
  }
  return out;
}

const sets = [
  ...['0.50.0', '0.98.0', '0.169.0'].map((v) => [`bundled ${v}`, join(bundled, v)] as const),
  ...['0.50.0', '0.98.0', '0.169.0'].map((v) => [`corpus ${v}`, join(corpus, v)] as const),
].filter(([, dir]) => existsSync(dir));

describe('a response’s usage rides with its own items, whichever the client wrote first', () => {
  if (!existsSync(corpus)) it.skip(`corpus versions skipped: ${corpus} is not present`, () => {});
  it.each(sets)('%s: the calls each served response made carry its served usage (truth.jsonl)', async (_, dir) => {
    const records = await responsesOf(join(dir, 'codex-home'));
    const usageOf = new Map<string, string>();
    const responseOfCall = new Map<string, string>();
    for (const r of records) {
      const response = r.messageId ?? '';
      if (r.usage)
        usageOf.set(response, `${r.usage.inputTokens + r.usage.cacheReadInputTokens}/${r.usage.outputTokens}`);
      for (const b of r.content) if (b.kind === 'tool-use') responseOfCall.set(b.id, response);
    }
    const served = readFileSync(join(dir, 'truth.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Served);
    const checked: [string, string | undefined, string][] = [];
    for (const s of served) {
      const calls = s.callIds ?? (s.items ?? []).flatMap((i) => (i.callId === undefined ? [] : [i.callId]));
      for (const id of calls) {
        const response = responseOfCall.get(id);
        if (response === undefined || !s.usage) continue;
        checked.push([id, usageOf.get(response), `${s.usage.input_tokens}/${s.usage.output_tokens}`]);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
    expect(checked.filter(([, got, want]) => got !== want)).toEqual([]);
  });
});

describe('Codex 0.34 (a response’s usage first, its items written with its tools’ outputs)', () => {
  const files: [string, string][] = [
    ['bundled', bundled34],
    ...(existsSync(wild34) ? [['wild', wild34] as [string, string]] : []),
  ];
  if (!existsSync(wild34)) it.skip(`wild file skipped: ${wild34} is not present`, () => {});

  it.each(files)(
    '%s: a wait for the person is not model time; a call lasts what its output reports',
    async (_, path) => {
      const { files: found } = await codexAdapter.discover(path);
      const [group] = groupSessions(found);
      const session = await loadSession(group!);
      const lane = waterfallOf(session).lanes[0];
      // The person came back 4 h 35 min after the answer at 17:50:46 ("Nope, the CI badge is still failing"): that
      // wait is theirs, idle (past the threshold), not the model's (it was, when the next response's usage rode with
      // this answer).
      const at = (iso: string) => Date.parse(iso);
      const covers = (i: { startMs: number; endMs: number }, from: string, to: string) =>
        i.startMs <= at(from) && i.endMs >= at(to);
      expect(lane?.model.filter((i) => covers(i, '2025-11-01T18:00Z', '2025-11-01T22:00Z'))).toEqual([]);
      expect(lane?.idle.some((i) => covers(i, '2025-11-01T17:50:47Z', '2025-11-01T22:26:11Z'))).toBe(true);
      // `ls -la`: call and output share a millisecond; the output says 0.3 s.
      const ls = session.calls.find((c) => c.id === 'call_ZXVzbLtT0CaTm3nYrN4vnCBP');
      expect([ls?.durations, ls && primaryDurationMs(ls)]).toEqual([[{ source: 'durationSeconds', ms: 300 }], 300]);
      // The first response's usage (6,239 input tokens) is the one that made that call.
      const first = session.events.find((e) => e.kind === 'assistant' && e.usage !== undefined);
      expect(first?.kind === 'assistant' && first.items.some((i) => i.kind === 'tool-call' && i.id === ls?.id)).toBe(
        true,
      );
    },
  );
});

describe('a web search (its outcome on its own line, no start written)', () => {
  it('has no duration, where other calls keep theirs', async () => {
    const home = join(bundled, '0.169.0', 'codex-home');
    const { files } = await codexAdapter.discover(home);
    const web = files.filter((f) => readFileSync(f.path, 'utf8').includes('"web_search_call"'));
    expect(web).toHaveLength(1);
    const [group] = groupSessions(web);
    const session = await loadSession(group!);
    const searches = session.calls.filter((c) => c.name === 'web_search');
    // Before: each 0 ms, the call's and its outcome's timestamps being the same line's.
    expect(searches.map((c) => [c.durations, primaryDurationMs(c)])).toEqual([
      [[], undefined],
      [[], undefined],
    ]);
    const others = session.calls.filter((c) => c.name !== 'web_search' && c.result !== undefined);
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((c) => primaryDurationMs(c) !== undefined)).toBe(true);
  });
});
