import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mutationClasses } from '../../../test/fuzz/mutate.js';
import { runFuzz } from './fuzz/harness.js';

// `npm run fuzz` sets FUZZ_CASES (≥ 100,000) and FUZZ_REPORT (where the report goes); npm test runs a few thousand.
const cases = Number(process.env.FUZZ_CASES ?? 2000);
const seed = Number(process.env.FUZZ_SEED ?? 13);

describe('fuzz: mutated real transcripts through core, index and every command', () => {
  it(`${cases} mutated lines (seed ${seed}): no crash, every good line kept at its line, every bad line reported`, async () => {
    const report = await runFuzz({ seed, cases, perFile: 16, filesPerHome: process.env.FUZZ_CASES ? 40 : 100 });
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(report, null, 2)}\n`);
    expect(Object.keys(report.byClass).sort()).toEqual([...mutationClasses].sort());
    expect(report.cases).toBe(cases);
    expect(report.crashes).toEqual([]);
    expect(report.lostGoodLines).toEqual([]);
    expect(report.unreportedBadLines).toEqual([]);
    expect(report.goodLines).toBeGreaterThan(cases);
    expect(report.commands).toBeGreaterThan(0);
  }, 3_600_000);
});
