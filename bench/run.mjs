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
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { buildBigSession, buildHome } from './home.mjs';
import { bin, cache, fromCorpus, gib, sources } from './setup.mjs';

if (process.argv[2] === 'micro' || process.argv[2] === 'warm' || process.argv[2] === 'team') {
  await import(`./${process.argv[2]}.mjs`);
  process.exit(0);
}

const bigMb = Number(process.env.BENCH_BIG_MB || 200);
const CCUSAGE = '20.0.24';

const rows = [];
const row = (figure, value, note = '') => {
  rows.push({ figure, value, note });
  console.error(`  ${figure}: ${value}${note ? `  (${note})` : ''}`);
};
const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

// Peak RSS of a child process: a preload writes process.resourceUsage().maxRSS when it exits.
const preload = join(cache, 'max-rss.mjs');
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
`,
);
let rssSeq = 0;

/** Run a command to completion: time, exit code, stdout (or only its length) and peak RSS. */
function runProcess(command, args, { env = {}, keepStdout = true, stdoutFile } = {}) {
  const rssFile = join(cache, `rss-${process.pid}-${rssSeq++}`);
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(command, command === process.execPath ? ['--import', preload, ...args] : args, {
      env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    let bytes = 0;
    let stderr = '';
    // A large output (show --json of a huge session) goes to a file: it can exceed the longest string V8 makes.
    const sink = stdoutFile === undefined ? undefined : createWriteStream(stdoutFile);
    child.stdout.on('data', (d) => {
      bytes += d.length;
      if (sink !== undefined) sink.write(d);
      else if (keepStdout) chunks.push(d);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', async (code) => {
      const elapsed = performance.now() - t0;
      if (sink !== undefined) await new Promise((r) => sink.end(r));
      const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
      rmSync(rssFile, { force: true });
      done({ code, ms: elapsed, stdout: keepStdout ? Buffer.concat(chunks).toString('utf8') : '', bytes, stderr, rss });
    });
  });
}
const agentdash = (args, options) => runProcess(process.execPath, [bin, ...args, '--no-progress'], options);

function check(result, what) {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}: ${result.stderr.slice(0, 500)}`);
  return result;
}

function dbSize(db) {
  return ['', '-wal'].reduce((n, s) => n + (existsSync(db + s) ? statSync(db + s).size : 0), 0);
}

/** Every transcript file under a home's projects folder. */
function transcriptFiles(home) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.jsonl')) files.push(join(dir, e.name));
    }
  };
  walk(join(home, 'projects'));
  return files;
}

/**
 * The fastest floor: one thread reading each file as bytes, finding line ends in the buffer and `JSON.parse`-ing each
 * line decoded on its own (no whole-file string, no array of lines).
 */
function fastFloor(home) {
  const files = transcriptFiles(home);
  const t0 = performance.now();
  let lines = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      if (end > start) {
        JSON.parse(bytes.toString('utf8', start, end));
        lines += 1;
      }
      start = end + 1;
    }
  }
  return { ms: performance.now() - t0, lines, files: files.length };
}

/** The first floor: one thread reading each transcript file as one string, splitting it and JSON.parse-ing every line. */
function floor(home) {
  const files = transcriptFiles(home);
  const t0 = performance.now();
  let lines = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      JSON.parse(line);
      lines += 1;
    }
  }
  return { ms: performance.now() - t0, lines, files: files.length };
}

/** Start `serve`, return its URL as soon as it prints it, and a stop function with its peak RSS. */
function startServe(args) {
  const rssFile = join(cache, `rss-${process.pid}-${rssSeq++}`);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', preload, bin, 'serve', ...args, '--port', '0', '--no-progress'], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = new Promise((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s"]+/.exec(out);
      if (m) done({ url: m[0].replace(/\/$/, ''), ms: performance.now() - t0 });
    });
    child.on('close', (code) => fail(new Error(`serve exited with ${code}: ${err.slice(0, 300)}`)));
  });
  const stop = () =>
    new Promise((done) => {
      child.on('close', () => {
        const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
        rmSync(rssFile, { force: true });
        done(rss);
      });
      child.kill('SIGTERM');
    });
  return { t0, url, stop };
}

async function until(fn, timeoutMs = 600_000) {
  const start = performance.now();
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (performance.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

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

  // serve on an empty database: first HTTP answer, first sessions listed.
  {
    const serve = startServe([home.home, '--db', join(work, 'empty.sqlite')]);
    const { url } = await serve.url;
    const first = await until(async () =>
      (await fetch(`${url}/api/health`)).status < 500 ? performance.now() : undefined,
    );
    const listed = await until(async () => {
      const body = await (await fetch(`${url}/api/sessions?limit=50`)).json();
      return (body.sessions?.length ?? 0) > 0 ? performance.now() : undefined;
    });
    const rss = await serve.stop();
    row('`serve`, empty database: first HTTP answer', ms(first - serve.t0), `peak RSS ${mb(rss)}`);
    row('`serve`, empty database: first sessions listed', ms(listed - serve.t0));
  }

  // append → SSE event, on the warm database.
  {
    const appendHome = join(work, 'append-home');
    const sessionFile = join(appendHome, 'projects', '-bench-append', '00000000-0000-4000-a000-000000000001.jsonl');
    mkdirSync(dirname(sessionFile), { recursive: true });
    const template = JSON.stringify({
      type: 'user',
      uuid: '',
      parentUuid: null,
      sessionId: '00000000-0000-4000-a000-000000000001',
      timestamp: new Date().toISOString(),
      cwd: '/bench',
      message: { role: 'user', content: 'appended prompt' },
    });
    const line = (i) =>
      `${template.replace('"uuid":""', `"uuid":"00000000-0000-4000-b000-${String(i).padStart(12, '0')}"`)}\n`;
    writeFileSync(sessionFile, line(0));
    const serve = startServe([home.home, appendHome, '--db', db]);
    const { url } = await serve.url;
    const controller = new AbortController();
    const response = await fetch(`${url}/api/events`, { signal: controller.signal });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: ?(.*)$/m.exec(event)?.[1];
          // Only the appended session's own update counts (the first start also sends list updates while it indexes).
          if (data && /"type":"session-updated"/.test(data) && data.includes('00000000-0000-4000-a000-000000000001'))
            return;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('SSE closed');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    // Wait for the background first refresh to finish, so that appends are timed against a ready server.
    for (let tries = 0; tries < 600; tries++) {
      const health = await (await fetch(`${url}/api/health`)).json();
      if (health.index?.state === 'ready') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1500));
    buffer = '';
    const latencies = [];
    for (let i = 1; i <= 21; i++) {
      const t0 = performance.now();
      appendFileSync(sessionFile, line(i));
      await Promise.race([
        nextEvent(),
        new Promise((_, fail) => setTimeout(() => fail(new Error('no SSE event in 10 s')), 10_000)),
      ]);
      if (i > 1) latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 300));
      buffer = '';
    }
    controller.abort();
    const rss = await serve.stop();
    row(
      'append → SSE event',
      `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}`,
      `20 appends; serve peak RSS ${mb(rss)}`,
    );
  }

  // The big session: cold index, show --json, the dashboard's session header.
  {
    const bigDb = join(work, 'big.sqlite');
    const indexed = check(await agentdash(['index', big.home, '--db', bigDb, '--json']), 'index big');
    row(`cold \`index\` of one ${mb(big.bytes)} session`, ms(indexed.ms), `peak RSS ${mb(indexed.rss)}`);
    const shownFile = join(work, 'show.json');
    const shown = await agentdash(['show', big.sessionId, big.home, '--db', bigDb, '--json'], {
      stdoutFile: shownFile,
    });
    // Checked with jq (a stream of that size is more than one JavaScript string can hold).
    let valid = 'valid JSON';
    let callCount = '';
    try {
      const count = execFileSync('jq', ['(.calls // .session.calls // []) | length', shownFile], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      callCount = `, ${count.trim()} calls`;
    } catch (error) {
      valid = `not checked or not valid JSON (${String(error).split('\n')[0].slice(0, 80)})`;
    }
    rmSync(shownFile, { force: true });
    row(
      `\`show --json\` of the ${mb(big.bytes)} session`,
      shown.code === 0 ? ms(shown.ms) : `exit ${shown.code}`,
      `${mb(shown.bytes)} out, ${valid}${callCount}; peak RSS ${mb(shown.rss)}${shown.code === 0 ? '' : `; ${shown.stderr.trim().slice(0, 120)}`}`,
    );
    const serve = startServe([big.home, '--db', bigDb]);
    const { url } = await serve.url;
    const t0 = performance.now();
    const res = await fetch(`${url}/api/sessions/${big.sessionId}`);
    const body = await res.json();
    const header = performance.now() - t0;
    const rss = await serve.stop();
    // a `pending` header (older builds) lacks the events, subagents and shells the full one has
    const kind = body.pending === true ? 'pending header' : `full header, ${body.totalEvents} events`;
    row(
      `\`GET /api/sessions/:id\` of the ${mb(big.bytes)} session`,
      ms(header),
      `HTTP ${res.status}, ${kind}, asked as soon as \`serve\` listens (its threads still starting); serve peak RSS ${mb(rss)}`,
    );
    // The same on a server that has started: its index is ready (what a user who opens the dashboard, then the
    // session, meets).
    const settled = startServe([big.home, '--db', bigDb]);
    const at = (await settled.url).url;
    await until(async () => {
      const health = await (await fetch(`${at}/api/health`)).json();
      return (health.data ?? health).index?.state === 'ready' ? true : undefined;
    });
    await (await fetch(`${at}/api/sessions?limit=50`)).json();
    const t1 = performance.now();
    const res2 = await fetch(`${at}/api/sessions/${big.sessionId}`);
    await res2.json();
    const header2 = performance.now() - t1;
    await settled.stop();
    row(
      `\`GET /api/sessions/:id\` of the ${mb(big.bytes)} session, server started`,
      ms(header2),
      `HTTP ${res2.status}; after its index is ready and the sessions list answered`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ` +
    `home: ${home.files} files, ${mb(home.bytes)}; big session ${mb(big.bytes)}\n`,
);
console.log('| figure | value | note |\n|---|---:|---|');
for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.note} |`);
