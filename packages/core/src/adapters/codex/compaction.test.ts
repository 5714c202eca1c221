import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexFixtures, repoRoot } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';

/** Codex 0.169's auto-compaction scenario: six compactions, each a billed summary response then `compacted`. */
const compactFile =
  'codex-home/sessions/2026/11/23/rollout-2026-11-23T00-58-02-01a205e8-f4a5-7ee2-8270-6d1287d26e0b.jsonl';
const sharedCodex = resolve(repoRoot, '../shared/corpus-agents/codex');
const homes = [
  { name: 'bundled 0.169 compact (outputs cut)', dir: join(codexFixtures, '0.169.0'), present: true },
  {
    name: 'corpus 0.169 compact (as written)',
    dir: join(sharedCodex, '0.169.0'),
    present: existsSync(join(sharedCodex, '0.169.0', compactFile)),
  },
];

async function sessionOf(file: string): Promise<Session> {
  const { files } = await discoverAll([file]);
  const [group] = groupSessions(files);
  if (group === undefined) throw new Error(`no session in ${file}`);
  return loadSession(group);
}

const summaryOf = (n: number) =>
  `Summary of the work so far (checkpoint ck-compact-${n}): the user asked for scripted steps; ${n} model turns were ` +
  'completed, files were read and commands run as requested. Next: continue with the remaining steps.';

describe.each(homes)('$name', ({ dir, present }) => {
  test.skipIf(!present)('the summary is the compaction note, not an answer; its usage still counts', async () => {
    const session = await sessionOf(join(dir, compactFile));
    const texts = session.events.flatMap((e) =>
      e.kind === 'assistant' ? e.items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])) : [],
    );
    const notes = session.events.flatMap((e) =>
      e.kind === 'system' ? [`${e.record.subtype}: ${e.record.content ?? ''}`] : [],
    );
    expect(texts).toEqual(['Read all six files (700 lines each).']);
    expect(notes).toEqual([1, 2, 3, 4, 5, 6].map((n) => `compact_boundary: ${summaryOf(n)}`));
    // truth.jsonl: 14 responses served (6 of them compactions), 170,811 input tokens of which 101,248 cached, 608 out.
    expect(session.usageByModel['gpt-5.5']).toMatchObject({
      responses: 14,
      inputTokens: 170_811 - 101_248,
      cacheReadInputTokens: 101_248,
      outputTokens: 608,
    });
  });
});

test.skipIf(!existsSync(join(sharedCodex, '0.98.0')))(
  'Codex 0.98 (no summary response written): the note keeps the client text (skipped without ../shared)',
  async () => {
    const file =
      'codex-home/sessions/2026/11/23/rollout-2026-11-23T00-59-53-01a205ea-a42f-75a0-8a3a-4cc17f501654.jsonl';
    const session = await sessionOf(join(sharedCodex, '0.98.0', file));
    const notes = session.events.flatMap((e) => (e.kind === 'system' ? [e.record.content ?? ''] : []));
    expect(notes.map((n) => n.startsWith('Another language model started'))).toEqual([true, true, true]);
  },
);

test("a summary whose compaction never came is not a later compaction's note", async () => {
  // The bundled file changed as a killed client and a resume would leave it: the first summary response has no
  // `compacted` after it, a prompt follows, and the second compaction wrote no summary of its own.
  const lines = readFileSync(join(codexFixtures, '0.169.0', compactFile), 'utf8').split('\n');
  const kinds = lines.map((line) => {
    if (line === '') return '';
    const { type, payload } = JSON.parse(line) as { type: string; payload?: { type?: string; role?: string } };
    return `${type}/${payload?.type ?? ''}/${payload?.role ?? ''}`;
  });
  const compacted = kinds.flatMap((k, i) => (k.startsWith('compacted/') ? [i] : []));
  const summaries = kinds.flatMap((k, i) => (k === 'response_item/message/assistant' ? [i] : []));
  const prompt = lines[kinds.indexOf('response_item/message/user', 4)] as string;
  const [first, second] = compacted as [number, number];
  const secondSummary = summaries.filter((i) => i > first && i < second)[0] as number;
  const changed = lines.flatMap((line, i) => (i === first ? [prompt] : i === secondSummary ? [] : [line]));
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-compact-'));
  try {
    const file = join(dir, compactFile);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, changed.join('\n'));
    const session = await sessionOf(file);
    const notes = session.events.flatMap((e) => (e.kind === 'system' ? [e.record.content ?? ''] : []));
    expect(notes[0]).not.toBe(summaryOf(1));
    expect(notes.slice(1)).toEqual([3, 4, 5, 6].map(summaryOf));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
