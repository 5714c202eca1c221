#!/usr/bin/env node
// `npm run fuzz [-- CASES [SEED]]`: the long fuzz run (default 100,000 mutated lines), not part of `npm test`.
// Runs the fuzz suite of packages/cli/test/fuzz.test.ts with more cases and prints its report: crashes, hangs,
// good lines lost, bad lines not reported, per mutation class.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cases = process.argv[2] ?? '100000';
const seed = process.argv[3] ?? String(Date.now() % 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'agentdash-fuzz-report-'));
const reportPath = join(dir, 'report.json');
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', '--project', 'cli', 'test/fuzz.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, TZ: 'UTC', FUZZ_CASES: cases, FUZZ_SEED: seed, FUZZ_REPORT: reportPath },
});
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch {
  console.error('fuzz: no report was written (the run failed before the end)');
  process.exit(result.status || 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const list = (title, items) => {
  console.log(`${title}: ${items.length}`);
  for (const item of items.slice(0, 20)) console.log(`  ${item}`);
  if (items.length > 20) console.log(`  … ${items.length - 20} more`);
};
console.log(
  `\nfuzz seed ${report.seed}: ${report.cases} mutated lines in ${report.files} files, ${report.commands} commands, ${Math.round((Date.now() - started) / 1000)} s`,
);
console.log(
  `by class: ${Object.entries(report.byClass)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
console.log(
  `sources (fuzzed files): ${Object.entries(report.sources ?? {})
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
console.log(`good lines kept: ${report.goodLines - report.lostGoodLines.length} of ${report.goodLines}`);
console.log(
  `bad lines reported: ${report.badLinesReported} of ${report.badLinesReported + report.unreportedBadLines.length}`,
);
list('crashes', report.crashes);
list('hangs', report.hangs);
list('good lines lost', report.lostGoodLines);
list('bad lines not reported', report.unreportedBadLines);
process.exit(result.status ?? 1);
