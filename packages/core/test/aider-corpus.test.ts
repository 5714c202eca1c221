import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { aiderAdapter } from '../src/adapters/aider/adapter.js';
import { aiderBlocks } from '../src/adapters/aider/blocks.js';
import { usageOfTokensLine } from '../src/adapters/aider/decode.js';
import { aiderFixtures } from '../src/adapters/aider/test-helpers.js';
import { defaultPriceTable, findPrice, groupSessions, loadSession } from '../src/index.js';
import type { TranscriptRecord } from '../src/model/record.js';

/** Real `.aider.chat.history.md` files of public repositories (SOURCES.md), each a repository folder. */
async function readAll() {
  const { files } = await aiderAdapter.discover(aiderFixtures);
  const out: { path: string; text: string; records: TranscriptRecord[] }[] = [];
  for (const file of files) {
    const records: TranscriptRecord[] = [];
    await aiderAdapter.streamRecords(
      file,
      (e) => {
        if (e.kind === 'record') records.push(e.record);
      },
      {},
    );
    out.push({ path: file.path, text: readFileSync(file.path, 'utf8'), records });
  }
  return out;
}

const lines = (text: string) => text.split('\n');

describe('Aider histories from public repositories', () => {
  test('every bundled file is found and listed in SOURCES.md', async () => {
    const { files } = await aiderAdapter.discover(aiderFixtures);
    const sources = readFileSync(join(aiderFixtures, 'SOURCES.md'), 'utf8');
    // 7 first collected, 25 added: 20 benchmark histories of aorwall/aider (Aider 0.1x, 2023), 5 other repositories;
    // then 2 more repositories (Aider's own history in its test fixtures, gxm11/RPGXP-Crafting-System): 15 in all.
    expect(files.length).toBe(34);
    for (const file of files) expect(sources).toContain(`| ${file.projectDir.split('/').pop()} |`);
  });

  test('every line is accounted for: blocks cover each non-blank line once, each block read as a record', async () => {
    for (const { path, text, records } of await readAll()) {
      const covered = new Map<number, number>();
      for (const block of aiderBlocks(text)) {
        for (let line = block.startLine; line <= block.endLine; line += 1) {
          covered.set(line, (covered.get(line) ?? 0) + 1);
        }
      }
      const lost = lines(text)
        .map((l, i) => ({ l, n: i + 1 }))
        .filter(({ l, n }) => l.trim() !== '' && covered.get(n) !== 1)
        .map(({ n }) => `${path}:${n}`);
      expect(lost).toEqual([]);
      const starts = new Set(records.map((r) => r.loc.line));
      const unread = aiderBlocks(text)
        .filter((b) => !starts.has(b.startLine))
        .map((b) => b.startLine);
      expect({ path, unread }).toEqual({ path, unread: [] });
    }
  });

  test('runs, prompts, edits and their outcomes equal an independent count of the lines', async () => {
    let markers = 0;
    let edits = 0;
    let writes = 0;
    for (const { path, text, records } of await readAll()) {
      const all = lines(text);
      const runs = records.filter((r) => r.kind === 'system' && r.subtype === 'aider_run').length;
      expect(runs).toBe(all.filter((l) => l.startsWith('# aider chat started at ')).length);
      const prompts = records.filter((r) => r.kind === 'user' && typeof r.content === 'string').length;
      expect(prompts).toBe(aiderBlocks(text).filter((b) => b.kind === 'user').length);
      const calls = records.flatMap((r) =>
        r.kind === 'assistant' ? r.content.filter((b) => b.kind === 'tool-use') : [],
      );
      const results = records.flatMap((r) =>
        r.kind === 'user' && typeof r.content !== 'string' ? r.content.filter((b) => b.kind === 'tool-result') : [],
      );
      expect({ path, paired: results.length }).toEqual({ path, paired: calls.length });
      // SEARCH/REPLACE blocks, under the marker names of every Aider version (SEARCH, ORIGINAL, HEAD).
      const marked = all.filter((l) => /^<{5,9} (SEARCH|ORIGINAL|HEAD)\s*$/.test(l)).length;
      const whole = calls.filter((c) => c.kind === 'tool-use' && c.name === 'write').length;
      // The whole format: one listing for each `Applied edit to F` (Aider prints one per file it wrote).
      if (marked === 0)
        expect({ path, whole }).toEqual({ path, whole: all.filter((l) => l.startsWith('> Applied edit to ')).length });
      markers += marked;
      edits += calls.length - whole;
      writes += whole;
    }
    // One SEARCH marker is in Aider's own explanation of a failed block, not in an answer.
    expect(edits).toBe(markers - 1);
    expect({ edits, writes }).toEqual({ edits: 42, writes: 18 });
  });

  test("Aider's quoted lines are kept whole, understood or not", async () => {
    for (const { path, text, records } of await readAll()) {
      const quoted = aiderBlocks(text)
        .filter((b) => b.kind === 'output')
        .reduce((n, b) => n + b.lines.length, 0);
      const kept = records
        .filter((r) => r.kind === 'system' && r.subtype === 'aider_output' && r.data.unquoted !== true)
        .reduce((n, r) => n + (r.kind === 'system' ? (r.content ?? '').split('\n').length : 0), 0);
      expect({ path, kept }).toEqual({ path, kept: quoted });
    }
  });

  test('sessions load with each edit typed; failures classified; no time inside a run is made up', async () => {
    const { files } = await aiderAdapter.discover(aiderFixtures);
    const outcomes: Record<string, number> = {};
    for (const group of groupSessions(files)) {
      const session = await loadSession(group);
      expect(session.agent).toBe('aider');
      for (const call of session.calls) {
        const key = `${call.status} ${call.result?.typed.kind} ${call.result?.error?.category ?? ''}`.trim();
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
    }
    // The first seven: 13 "Applied edit to F" lines (one per file, for each of its blocks), "Skipping edits to
    // CONVENTIONS.md" (the answer's two blocks for it), "# 1 SEARCH/REPLACE block failed to match!" ("The other 2 …
    // were applied"). The benchmark histories (Aider 0.1x): 2 HEAD/updated blocks applied; "InvalidEditBlock: edit
    // failed!" then "… does not contain the *exact sequence* of HEAD lines" for 9 blocks (4 + 4 in ledger, 1 in
    // atbash-cipher); "Malformed response #3, aborting." and "#4, aborting." for ledger's last 8; 18 whole files.
    // Aider's own history (Aider-AI/aider): one SEARCH/REPLACE block, "Applied edit to aider/utils.py".
    expect(outcomes).toEqual({
      'ok edit': 22,
      'ok write': 18,
      'error error user-rejected': 2,
      'error error string-not-found': 10,
      'error error validation': 8,
    });
    for (const { records } of await readAll()) {
      const stamped = records.filter((r) => 'timestamp' in r && r.timestamp !== undefined);
      expect(stamped.every((r) => r.kind === 'system' && r.subtype === 'aider_run')).toBe(true);
    }
  });

  test("tokens are Aider's rounded report, per answer", async () => {
    expect(usageOfTokensLine('2.1k sent, 1.5k cache write, 900 cache hit, 120 received')).toEqual({
      inputTokens: 2100,
      outputTokens: 120,
      cacheCreationInputTokens: 1500,
      cacheCreation1hInputTokens: 0,
      cacheReadInputTokens: 900,
    });
    let reports = 0;
    let usages = 0;
    for (const { text, records } of await readAll()) {
      // Aider's report, and Aider 0.1x's (`> 945 prompt tokens, 194 completion tokens, $0.039990 cost`).
      reports += lines(text).filter((l) => /^> (Tokens: |\d+ prompt tokens, )/.test(l)).length;
      usages += records.filter((r) => r.kind === 'assistant' && r.usage !== undefined).length;
    }
    expect(usages).toBe(reports);
    expect(reports).toBeGreaterThan(20);
  });

  test('the 2023 list prices give the exact cost Aider 0.1x reported with its token counts', async () => {
    const compared: string[] = [];
    for (const { path, text } of await readAll()) {
      let model: string | undefined;
      lines(text).forEach((line, i) => {
        model = /^> Model: (\S+)/.exec(line)?.[1] ?? model;
        const m = /^> (\d+) prompt tokens, (\d+) completion tokens, \$([\d.]+) cost\s*$/.exec(line);
        if (m === null || model === undefined) return;
        const price = findPrice(defaultPriceTable, model);
        const ours = price === undefined ? Number.NaN : Number(m[1]) * price.input + Number(m[2]) * price.output;
        // Aider printed six decimals: the same tokens at the same rates are within its rounding.
        expect({ at: `${path}:${i + 1}`, model, off: Math.abs(ours - Number(m[3])) <= 5e-7 + 1e-12 }).toEqual({
          at: `${path}:${i + 1}`,
          model,
          off: true,
        });
        compared.push(model);
      });
    }
    expect([...new Set(compared)].sort()).toEqual(['gpt-3.5-turbo', 'gpt-3.5-turbo-16k', 'gpt-4']);
    expect(compared.length).toBeGreaterThan(10);
  });
});
