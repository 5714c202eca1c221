// `npm run bench -- team`: team mode at scale, against a real PostgreSQL started here.
//
// The bench home (as `npm run bench` builds it; BENCH_GIB scales it) is indexed once locally, then pushed at the full
// tier by BENCH_TEAM_DEVICES (default 20) simulated devices at once, each a person of its own, to a real
// `agentdash serve --team`. Printed in one run: push throughput (and against the same machine's cold local index),
// the team's sessions list p50/p95, usage by day over everything, one session's header, PostgreSQL's size against
// the transcripts pushed, and an unchanged re-push (bytes sent, rows changed). Every command is the built CLI.
//
// BENCH_TEAM_KEEP=DIR: a team database kept for later runs. When DIR holds none, the run builds it as above and
// leaves PostgreSQL's data directory (DIR/data) and what the queries need (DIR/bench.json: the viewer's token, the
// home's size) in DIR. When it holds one, the run skips the home, the index, the pushes and the copies: it starts
// PostgreSQL on DIR/data and the team server of the current code (which applies its migrations) and measures the
// queries only. A kept database is used in place: copy it (`cp -a DIR /tmp/mine`) to keep the original unchanged.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, getPriority, setPriority, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { buildHome } from './home.mjs';
import { bin, cache, gib, sources } from './setup.mjs';
import { copyDevices, cpuOf, postgresCpu, pushCost, startPostgres, topStatements } from './team-pg.mjs';
import { mb, measureQueries, ms, SCALE_SESSIONS } from './team-queries.mjs';

const devices = Number(process.env.BENCH_TEAM_DEVICES || 20);
/**
 * BENCH_TEAM_PUSHERS=N (default: every device, the real push): only the first N devices push, and the push's figures
 * are theirs; the others' sessions are copied in SQL from a pushed device's rows (every table, new uids): the queries
 * run over as many sessions without the pushes. Said in the output. BENCH_TEAM_PGSTAT=1: PostgreSQL's statements.
 */
const pushers = Math.max(1, Math.min(devices, Number(process.env.BENCH_TEAM_PUSHERS || devices)));
/**
 * BENCH_TEAM_INDEX=FILE: the local index of the same home from an earlier run (its cold index then not timed here);
 * written there after the index when the file does not exist yet.
 */
const reuseIndex = process.env.BENCH_TEAM_INDEX;
/**
 * BENCH_TEAM_PUSH_NICE=N (default 5): the pushes run N nice steps below the team server and PostgreSQL. Laptops are
 * other machines; here twenty pushers share two cores with the one server process, and at equal priority they starve
 * it until a request waits past the client's header timeout (five minutes). 0 runs them all alike.
 */
const pushNice = Number(process.env.BENCH_TEAM_PUSH_NICE ?? 5);
/** BENCH_TEAM_PROF=DIR: every CLI process (the team server, each push) writes a V8 CPU profile into DIR. */
const prof = process.env.BENCH_TEAM_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_TEAM_PROF}`] : [];
const keep = process.env.BENCH_TEAM_KEEP;
const keptData = keep === undefined ? undefined : join(keep, 'data');
const keptFacts = keep === undefined ? undefined : join(keep, 'bench.json');
const kept = keptData !== undefined && existsSync(join(keptData, 'PG_VERSION'));
if (kept && !existsSync(keptFacts)) {
  throw new Error(`${keep} holds a database without bench.json (a build that did not finish): remove it`);
}
const started = performance.now();
const stages = [];
const stage = (name) => stages.push({ name, at: performance.now() });
const rows = [];
const row = (figure, value, note = '') => {
  rows.push({ figure, value, note });
  console.error(`  ${figure}: ${value}${note ? `  (${note})` : ''}`);
};

/** Runs the CLI; resolves with its stdout, time and exit code (rejects on a non-zero exit unless `allowFail`). */
function agentdash(args, { env = {}, allowFail = false, nice = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...prof, bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (nice !== 0) setPriority(child.pid, Math.min(19, getPriority(process.pid) + nice));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const out = { stdout, stderr, code, ms: performance.now() - t0 };
      if (code !== 0 && !allowFail) reject(new Error(`agentdash ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(out);
    });
  });
}

/** `serve --team`: started, its URL read from --json, stopped by the caller. */
function serveTeam(pgUrl) {
  const child = spawn(process.execPath, [...prof, bin, 'serve', '--team', '--pg', pgUrl, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const url = /"url":\s*"([^"]+)"/.exec(out)?.[1];
      if (url) resolve({ url, pid: child.pid, stop: () => child.kill('SIGTERM') });
    });
    child.on('close', (code) => reject(new Error(`serve --team exited ${code}: ${err}`)));
  });
}

const pg = await startPostgres(keptData);
let server;
let work;
try {
  const pgUrl = pg.urlOf('postgres');
  const pgPort = new URL(pgUrl).port;
  if (kept) {
    const facts = JSON.parse(readFileSync(keptFacts, 'utf8'));
    if (facts.devices !== devices) {
      throw new Error(`${keep} was built with BENCH_TEAM_DEVICES=${facts.devices}: run with the same`);
    }
    console.error(
      `team bench on the database kept in ${keep} (built from a ${facts.gib} GiB home, ${devices} devices): ` +
        `the queries only; ${cpus().length} cores, Node ${process.version}`,
    );
    server = await serveTeam(pgUrl);
    stage('PostgreSQL and the team server started');
    const sql = postgres(pgUrl, { max: 1, onnotice: () => {} });
    await measureQueries({ sql, server, viewer: facts.viewer, pgPort, homeBytes: facts.homeBytes, devices, row });
    stage('queries');
    await sql.end();
  } else {
    work = mkdtempSync(join(tmpdir(), 'agentdash-team-bench-'));
    await buildAndMeasure({ pgUrl, pgPort, work });
  }
} finally {
  server?.stop();
  await pg.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}

/** The run without a kept database: home, index, people, pushes, copies, the queries, an unchanged re-push. */
async function buildAndMeasure({ pgUrl, pgPort, work }) {
  const home = buildHome(sources, join(cache, `home-${gib}gib-v1`), gib * 2 ** 30);
  console.error(
    `team bench: ${gib} GiB home (${mb(home.bytes)}), ${devices} devices; ${cpus().length} cores, ${Math.round(
      totalmem() / 2 ** 30,
    )} GiB, Node ${process.version}`,
  );
  const db = join(work, 'index.sqlite');
  const reused = reuseIndex !== undefined && existsSync(reuseIndex);
  if (reused) copyFileSync(reuseIndex, db);
  // with a reused index, `index` only checks the home's files against it
  const cold = await agentdash(['index', home.home, '--db', db, '--json']);
  const local = JSON.parse(cold.stdout);
  if (reuseIndex !== undefined && !reused) copyFileSync(db, reuseIndex);
  row(
    reused
      ? 'local index (reused from an earlier run: a warm update, not the cold index)'
      : 'local cold index (the same home, one device)',
    ms(cold.ms),
    `${local.sessions} sessions`,
  );

  stage('local cold index');
  if (local.sessions * devices < SCALE_SESSIONS) {
    console.error(
      `  (${local.sessions} sessions × ${devices} devices = ${(local.sessions * devices).toLocaleString('en-US')} ` +
        `sessions, under the ${SCALE_SESSIONS.toLocaleString('en-US')} the issue measures at: a small run)`,
    );
  }

  // people and devices a few at a time (each is a CLI process)
  const tokens = [];
  for (let at = 0; at < devices; at += 4) {
    const batch = Array.from({ length: Math.min(4, devices - at) }, (_, k) => at + k);
    await Promise.all(batch.map((i) => agentdash(['team', 'add-person', `p${i}`, '--pg', pgUrl, '--json'])));
    const added = await Promise.all(
      batch.map((i) => agentdash(['team', 'add-device', `p${i}`, 'laptop', '--pg', pgUrl, '--json'])),
    );
    tokens.push(...added.map((a) => JSON.parse(a.stdout).token));
  }
  const viewer = JSON.parse((await agentdash(['team', 'add-viewer', 'lead', '--pg', pgUrl, '--json'])).stdout).token;
  stage('people and devices');
  server = await serveTeam(pgUrl);

  const pushOne = (token) =>
    agentdash(
      ['push', server.url, home.home, '--token', token, '--share', 'full', '--db', db, '--json', '--no-progress'],
      { nice: pushNice },
    );
  if (pushNice !== 0) console.error(`  (the pushes run ${pushNice} nice steps below the team server and PostgreSQL)`);
  const sql = postgres(pgUrl, { max: 1, onnotice: () => {} });
  if (process.env.BENCH_TEAM_PGSTAT === '1') await sql`select pg_stat_statements_reset()`;
  const cpu0 = {
    server: cpuOf(server.pid),
    pushes: cpuOf(process.pid, true) - cpuOf(process.pid),
    pg: postgresCpu(pgPort),
  };
  const t0 = performance.now();
  const pushes = await Promise.all(tokens.slice(0, pushers).map(pushOne));
  const pushMs = performance.now() - t0;
  const cpu = {
    server: cpuOf(server.pid) - cpu0.server,
    pushes: cpuOf(process.pid, true) - cpuOf(process.pid) - cpu0.pushes,
    pg: postgresCpu(pgPort) - cpu0.pg,
  };
  const sent = pushes.reduce((n, p) => n + JSON.parse(p.stdout).bytesSent, 0);
  const pushed = home.bytes * pushers;
  row(
    `push, ${pushers} device${pushers === 1 ? '' : 's'} at once, full tier`,
    ms(pushMs),
    `${(pushed / 2 ** 20 / (pushMs / 1000)).toFixed(1)} MB of transcript/s; ${
      reused ? '' : `${(pushMs / cold.ms).toFixed(2)}× the local cold index for ${pushers}× the data; `
    }${mb(sent)} sent`,
  );

  row(
    'CPU during the push',
    `team server ${cpu.server.toFixed(1)} s, the ${pushers} pushes ${cpu.pushes.toFixed(1)} s, PostgreSQL ${cpu.pg.toFixed(1)} s`,
    `${((cpu.server + cpu.pushes + cpu.pg) / (pushMs / 1000)).toFixed(2)} cores busy on average`,
  );
  for (const r of pushCost({ bytes: pushed, ms: pushMs, cpu, cores: cpus().length })) row(...r);
  if (process.env.BENCH_TEAM_PGSTAT === '1') await topStatements(sql);
  stage('push');
  if (pushers < devices) {
    const t1 = performance.now();
    const copied = await copyDevices(sql, pushers, devices);
    row(
      `sessions of the other ${devices - pushers} devices, copied in SQL`,
      ms(performance.now() - t1),
      `${copied.toLocaleString('en-US')} sessions: each pushed device's rows in every table under another person ` +
        `and device, new uids; then ANALYZE (not a push: the push figures above are the pushers')`,
    );
    stage('copy');
  }
  if (keptFacts !== undefined) {
    // the database as built, for later runs of the queries alone (written before the re-push, which changes nothing)
    writeFileSync(keptFacts, `${JSON.stringify({ devices, gib, homeBytes: home.bytes, viewer })}\n`);
  }
  const tables = await measureQueries({ sql, server, viewer, pgPort, homeBytes: home.bytes, devices, row });
  stage('queries');
  // Every table's rows by the transaction that wrote them (xmin): a row written after `since` has a newer xmin (a
  // row deleted lowers the count), so the rows the re-push changed are counted, not guessed.
  const fingerprint = async (since) => {
    const out = new Map();
    for (const { name } of tables) {
      const [r] = await sql`select count(*)::bigint as n, coalesce(max(xmin::text::bigint), 0)::text as x,
            count(*) filter (where xmin::text::bigint > ${since ?? 0})::bigint as newer
          from ${sql(`agentdash.${name}`)}`;
      out.set(name, { n: Number(r.n), x: Number(r.x), newer: Number(r.newer) });
    }
    return out;
  };
  const before = await fingerprint();
  const since = Math.max(...[...before.values()].map((r) => r.x));
  const again = JSON.parse((await pushOne(tokens[0])).stdout);
  const after = await fingerprint(since);
  const changed = [...after].map(([name, r]) => ({
    name,
    rows: r.newer + Math.max(0, before.get(name).n - r.n),
  }));
  const rowsChanged = changed.reduce((n, c) => n + c.rows, 0);
  row(
    'unchanged re-push (one device)',
    `${again.bytesSent.toLocaleString('en-US')} bytes, ${rowsChanged.toLocaleString('en-US')} rows changed`,
    `${(again.bytesSent / Math.max(1, again.sessions)).toFixed(0)} bytes per session (goal ≤ 1 KB, 0 rows); ` +
      `${again.stored} stored${
        rowsChanged > 0
          ? `; in ${changed
              .filter((c) => c.rows > 0)
              .map((c) => `${c.name} ${c.rows}`)
              .join(', ')}`
          : ''
      }`,
  );
  stage('re-push');
  await sql.end();
}

let last = started;
const spent = stages.map(({ name, at }) => {
  const text = `${name} ${Math.round((at - last) / 1000)} s`;
  last = at;
  return text;
});
row('bench run', `${Math.round((performance.now() - started) / 1000)} s`, spent.join(', '));

console.log('\n| figure | value | note |\n|---|---|---|');
for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.note} |`);
