#!/usr/bin/env node
// AgentDash at real scale. Speed and memory are measured here, never asserted in tests.
//
//   npm run bench                  a 1 GiB Claude home + a 200 MB session (built once, cached), every figure
//   BENCH_GIB=0.25 npm run bench   a smaller home for a quick run (BENCH_BIG_MB for the single session)
//   npm run bench -- micro         the library micro-benchmarks (bench/micro.mjs)
//   npm run bench -- warm          only the warm figures, repeated (bench/warm.mjs)
//   npm run bench -- team          team mode on a real PostgreSQL: 20 devices push, the team API (bench/team.mjs)
//
// The home is built from ../shared/corpus (else the bundled samples) with fresh ids in every copy, and cached in
// $AGENTDASH_BENCH_CACHE (default: <os tmp>/agentdash-bench-cache), with ccusage 20.0.24 installed there for the
// comparison. Commands run as whole processes through the built CLI (black boxes): time and peak RSS each.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fastFloor, floor } from './floors.mjs';
import { buildBigSession, buildHome } from './home.mjs';
import { agentdash, check, dbSize, mb, median, ms, row, rows, runProcess } from './process.mjs';
import { appendToEvent, bigSession, serveEmpty } from './serve-stages.mjs';
import { cache, fromCorpus, gib, sources } from './setup.mjs';

if (process.argv[2] === 'micro' || process.argv[2] === 'warm' || process.argv[2] === 'team') {
  await import(`./${process.argv[2]}.mjs`);
  process.exit(0);
}

const bigMb = Number(process.env.BENCH_BIG_MB || 200);
const CCUSAGE = '20.0.24';

console.error(`building (or reusing) the bench home in ${cache} from ${fromCorpus ? 'the corpus' : 'the samples'}…`);
const home = buildHome(sources, join(cache, `home-${gib}gib-v1`), gib * 2 ** 30);
const biggest = sources
  .flatMap((h) =>
    readdirSync(join(h, 'projects')).flatMap((p) =>
      readdirSync(join(h, 'projects', p)).map((f) => join(h, 'projects', p, f)),
    ),
  )
  .filter((f) => f.endsWith('.jsonl') && !f.includes('agent-') && readFileSync(f, 'utf8').includes('"tool_use"'))
  .sort((a, b) => statSync(b).size - statSync(a).size)[0];
const big = await buildBigSession(biggest, join(cache, `big-${bigMb}mb-v1`), bigMb * 2 ** 20);
console.error(`home: ${home.files} files, ${mb(home.bytes)} (${home.copies} copies); big session: ${mb(big.bytes)}`);

const work = mkdtempSync(join(tmpdir(), 'agentdash-bench-'));
try {
  const fl = floor(home.home);
  row(
    'floor: read + JSON.parse every line, one thread',
    ms(fl.ms),
    `${fl.files} files, ${fl.lines.toLocaleString('en-US')} lines, ${mb(home.bytes)}`,
  );
  const ff = fastFloor(home.home);
  row(
    'fastest floor: lines split in the buffer, JSON.parse each',
    ms(ff.ms),
    `${ff.lines.toLocaleString('en-US')} lines; ${(ff.ms / fl.ms).toFixed(2)}× the first floor's time`,
  );

  const db = join(work, 'index.sqlite');
  const cold = check(await agentdash(['index', home.home, '--db', db, '--json']), 'cold index');
  const coldReport = JSON.parse(cold.stdout);
  row(
    'cold `index`',
    ms(cold.ms),
    `${(fl.ms / cold.ms).toFixed(2)}× the floor, ${(ff.ms / cold.ms).toFixed(2)}× the fastest floor; ${coldReport.sessions} sessions; peak RSS ${mb(cold.rss)}`,
  );
  const size = dbSize(db);
  row(
    'database size',
    mb(size),
    `${((100 * size) / home.bytes).toFixed(1)} % of the source, archive (${mb(coldReport.archive?.storedBytes ?? 0)}) included`,
  );

  const warm = [];
  let warmRss = 0;
  for (let i = 0; i < 3; i++) {
    const r = check(await agentdash(['index', home.home, '--db', db, '--json']), 'warm index');
    warm.push(r.ms);
    warmRss = Math.max(warmRss, r.rss);
  }
  row('warm `index` (nothing changed), whole process', ms(median(warm)), `median of 3; peak RSS ${mb(warmRss)}`);

  const stats = [];
  let statsRss = 0;
  let calls = 0;
  for (let i = 0; i < 3; i++) {
    const r = check(await agentdash(['stats', home.home, '--db', db, '--json']), 'stats');
    stats.push(r.ms);
    statsRss = Math.max(statsRss, r.rss);
    calls = JSON.parse(r.stdout).calls ?? JSON.parse(r.stdout).totals?.calls ?? calls;
  }
  row('warm `stats --json`, whole process', ms(median(stats)), `median of 3; ${calls} calls; peak RSS ${mb(statsRss)}`);

  // Search over every session, with its snippets read back from the transcripts (the index keeps only the words).
  const searches = [];
  let searchRss = 0;
  let hits = 0;
  for (let i = 0; i < 3; i++) {
    const r = check(await agentdash(['search', 'npm test', home.home, '--db', db, '--json']), 'search');
    searches.push(r.ms);
    searchRss = Math.max(searchRss, r.rss);
    const out = JSON.parse(r.stdout);
    hits = (Array.isArray(out) ? out : (out.hits ?? [])).length;
  }
  row(
    'warm `search "npm test" --json`, whole process',
    ms(median(searches)),
    `median of 3; ${hits} hits with snippets; peak RSS ${mb(searchRss)}`,
  );

  const ccusageDir = join(cache, 'ccusage');
  const ccusageBin = join(ccusageDir, 'node_modules/ccusage/src/cli.js');
  if (!existsSync(ccusageBin)) {
    try {
      execFileSync('npm', ['install', '--prefix', ccusageDir, `ccusage@${CCUSAGE}`, '--no-audit', '--no-fund'], {
        stdio: 'ignore',
      });
    } catch {
      // offline: skipped below
    }
  }
  if (existsSync(ccusageBin)) {
    const cc = [];
    let ccRss = 0;
    for (let i = 0; i < 3; i++) {
      const r = check(
        await runProcess(process.execPath, [ccusageBin, 'daily', '--offline', '--json'], {
          env: { CLAUDE_CONFIG_DIR: home.home },
        }),
        'ccusage',
      );
      cc.push(r.ms);
      ccRss = Math.max(ccRss, r.rss);
    }
    row(
      `ccusage ${CCUSAGE} \`daily --offline --json\`, same home`,
      ms(median(cc)),
      `median of 3; peak RSS ${mb(ccRss)}; stats is ${(median(cc) / median(stats)).toFixed(1)}× faster`,
    );
    // What no Node command can beat: a process that starts Node (with the same RSS probe) and exits.
    const bare = [];
    for (let i = 0; i < 3; i++) bare.push(check(await runProcess(process.execPath, ['-e', '0']), 'node -e 0').ms);
    row(
      '`node -e 0`, whole process (Node starting and exiting)',
      ms(median(bare)),
      `the most any Node command can be faster than ccusage on this machine: ${(median(cc) / median(bare)).toFixed(1)}×`,
    );
    // The same report from AgentDash: the first run computes it, the next ones give the stored answer back.
    const usage = [];
    for (let i = 0; i < 3; i++) {
      usage.push(check(await agentdash(['usage', 'daily', home.home, '--db', db, '--json']), 'usage').ms);
    }
    const kept = median(usage.slice(1));
    row(
      'warm `usage daily --json`, whole process',
      `${ms(usage[0])}, then ${ms(kept)}`,
      `first run computes it (${(median(cc) / usage[0]).toFixed(1)}× ccusage), later runs give the stored answer (${(median(cc) / kept).toFixed(1)}×)`,
    );
  } else {
    row(`ccusage ${CCUSAGE}`, 'skipped', `could not install it into ${ccusageDir}`);
  }

  await serveEmpty(home, work);
  await appendToEvent(home, work, db);
  await bigSession(big, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ` +
    `home: ${home.files} files, ${mb(home.bytes)}; big session ${mb(big.bytes)}\n`,
);
console.log('| figure | value | note |\n|---|---:|---|');
for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.note} |`);
