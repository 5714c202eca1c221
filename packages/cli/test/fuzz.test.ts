import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mutationClasses } from '../../../test/fuzz/mutate.js';
import { runFuzz } from './fuzz/harness.js';

// `npm run fuzz` sets FUZZ_CASES (≥ 100,000) and FUZZ_REPORT (where the report goes); npm test runs 600 cases (every
// mutation class, every source set, one home through every command), AGENTDASH_TEST_FULL=1 a few thousand.
const cases = Number(process.env.FUZZ_CASES ?? (process.env.AGENTDASH_TEST_FULL === '1' ? 2000 : 600));
const seed = Number(process.env.FUZZ_SEED ?? 13);
// The real transcripts are fuzzed too when ../shared is there: each corpus version and the wild set.
const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const corpusSets = existsSync(join(shared, 'corpus'))
  ? readdirSync(join(shared, 'corpus'))
      .filter((v) => existsSync(join(shared, 'corpus', v, 'claude-home', 'projects')))
      .map((v) => `corpus ${v}`)
  : [];
const wildSets = existsSync(join(shared, 'wild/claude-home/projects')) ? ['wild'] : [];
const expectedSets = ['samples', ...corpusSets, ...wildSets].sort();

describe('fuzz: mutated real transcripts through core, index and every command', () => {
  it(`${cases} mutated lines (seed ${seed}): no crash, every good line kept at its line, every bad line reported`, async () => {
    const report = await runFuzz({ seed, cases, perFile: 16, filesPerHome: process.env.FUZZ_CASES ? 40 : 100 });
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(report, null, 2)}\n`);
    expect(Object.keys(report.byClass).sort()).toEqual([...mutationClasses].sort());
    expect(report.cases).toBe(cases);
    expect(Object.keys(report.sources).sort()).toEqual(expectedSets);
    expect(report.crashes).toEqual([]);
    expect(report.lostGoodLines).toEqual([]);
    expect(report.unreportedBadLines).toEqual([]);
    expect(report.goodLines).toBeGreaterThan(cases);
    expect(report.commands).toBeGreaterThan(0);
  }, 3_600_000);
});
