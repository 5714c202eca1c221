// `npm run bench -- team`: team mode at scale, against a real PostgreSQL started here.
//
// The bench home (as `npm run bench` builds it; BENCH_GIB scales it) is indexed once locally, then pushed at the full
// tier by BENCH_TEAM_DEVICES (default 20) simulated devices at once, each a person of its own, to a real
// `agentdash serve --team`. Printed in one run: push throughput (and against the same machine's cold local index),
// the team's sessions list p50/p95, usage by day over everything, one session's header, PostgreSQL's size against
// the transcripts pushed, and an unchanged re-push (bytes sent, rows changed). Every command is the built CLI.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startLocalPostgres } from '../packages/team/dist/pg/local-postgres.js';
import { buildHome } from './home.mjs';
import { bin, cache, gib, sources } from './setup.mjs';

const devices = Number(process.env.BENCH_TEAM_DEVICES || 20);
const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const rows = [];
const row = (figure, value, note = '') => {
  rows.push({ figure, value, note });
  console.error(`  ${figure}: ${value}${note ? `  (${note})` : ''}`);
};

/** Runs the CLI; resolves with its stdout, time and exit code (rejects on a non-zero exit unless `allowFail`). */
function agentdash(args, { env = {}, allowFail = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
  const child = spawn(process.execPath, [bin, 'serve', '--team', '--pg', pgUrl, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const url = /"url":\s*"([^"]+)"/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.on('close', (code) => reject(new Error(`serve --team exited ${code}: ${err}`)));
  });
}

async function timedGet(url, token, path) {
  const t0 = performance.now();
  const res = await fetch(`${url.replace(/\/$/, '')}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
  return { ms: performance.now() - t0, body };
}

const home = buildHome(sources, join(cache, `home-${gib}gib-v1`), gib * 2 ** 30);
console.error(
  `team bench: ${gib} GiB home (${mb(home.bytes)}), ${devices} devices; ${cpus().length} cores, ${Math.round(
    totalmem() / 2 ** 30,
  )} GiB, Node ${process.version}`,
);
const work = mkdtempSync(join(tmpdir(), 'agentdash-team-bench-'));
const db = join(work, 'index.sqlite');
const pg = await startLocalPostgres();
let server;
try {
  const cold = await agentdash(['index', home.home, '--db', db, '--json']);
  const local = JSON.parse(cold.stdout);
  row('local cold index (the same home, one device)', ms(cold.ms), `${local.sessions} sessions`);

  const pgUrl = pg.urlOf('postgres');
  const tokens = [];
  for (let i = 0; i < devices; i += 1) {
    await agentdash(['team', 'add-person', `p${i}`, '--pg', pgUrl, '--json']);
    tokens.push(
      JSON.parse((await agentdash(['team', 'add-device', `p${i}`, 'laptop', '--pg', pgUrl, '--json'])).stdout).token,
    );
  }
  const viewer = JSON.parse((await agentdash(['team', 'add-viewer', 'lead', '--pg', pgUrl, '--json'])).stdout).token;
  server = await serveTeam(pgUrl);

  const pushOne = (token) =>
    agentdash([
      'push',
      server.url,
      home.home,
      '--token',
      token,
      '--share',
      'full',
      '--db',
      db,
      '--json',
      '--no-progress',
    ]);
  const t0 = performance.now();
  const pushes = await Promise.all(tokens.map(pushOne));
  const pushMs = performance.now() - t0;
  const sent = pushes.reduce((n, p) => n + JSON.parse(p.stdout).bytesSent, 0);
  const source = home.bytes * devices;
  row(
    `push, ${devices} devices at once, full tier`,
    ms(pushMs),
    `${(source / 2 ** 20 / (pushMs / 1000)).toFixed(1)} MB of transcript/s; ${(pushMs / cold.ms).toFixed(2)}× the ` +
      `local cold index for ${devices}× the data; ${mb(sent)} sent`,
  );

  const sql = postgres(pgUrl, { max: 1, onnotice: () => {} });
  const [{ n: sessions }] = await sql`select count(*)::int as n from agentdash.sessions`;
  const lists = [];
  for (let i = 0; i < 40; i += 1) lists.push((await timedGet(server.url, viewer, '/api/sessions?limit=200')).ms);
  row(
    `team sessions list (${sessions.toLocaleString('en-US')} sessions), p50 / p95`,
    `${ms(pct(lists, 50))} / ${ms(pct(lists, 95))}`,
    'goal p95 ≤ 300 ms',
  );
  const usage = [];
  for (let i = 0; i < 7; i += 1) usage.push((await timedGet(server.url, viewer, '/api/usage')).ms);
  row('usage by day over everything, median', ms(pct(usage, 50)), 'goal ≤ 500 ms');
  const first = JSON.parse((await timedGet(server.url, viewer, '/api/sessions?limit=1')).body).sessions?.[0];
  const headers = [];
  for (let i = 0; i < 7; i += 1)
    headers.push((await timedGet(server.url, viewer, `/api/sessions/${encodeURIComponent(first.id)}`)).ms);
  row("one session's header, median", ms(pct(headers, 50)));
  // search cuts each candidate session's documents again from its chunks: the first search pays for that, a search
  // over the same sessions again finds them cut (the team server keeps some in memory)
  const searches = [];
  for (const q of ['error', 'error', '"the file"']) {
    searches.push(
      (await timedGet(server.url, viewer, `/api/sessions?q=${encodeURIComponent(q)}&limit=${searches.length + 1}`)).ms,
    );
  }
  row(
    'team search in the sessions list: "error", again, "the file"',
    searches.map(ms).join(' / '),
    'first search cuts every candidate session read; at most 500 sessions found, those with the most documents holding the words first',
  );
  const [{ size }] = await sql`select pg_database_size(current_database())::bigint as size`;
  const tables = await sql`select c.relname as name, pg_total_relation_size(c.oid)::bigint as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'agentdash' and c.relkind = 'r' order by 2 desc`;
  row(
    'PostgreSQL by table (with indexes and TOAST)',
    tables
      .slice(0, 6)
      .map((t) => `${t.name} ${mb(Number(t.bytes))}`)
      .join(', '),
    `every device pushes the same transcripts, so their chunks are stored once (content-addressed); per-session rows are not`,
  );
  row(
    'PostgreSQL size / transcripts pushed',
    `${mb(Number(size))} / ${mb(source)}`,
    `${((100 * Number(size)) / source).toFixed(1)} % (goal ≤ 25 %)`,
  );
  // A team whose devices push different sessions stores each device's chunks too: its tables per transcript are one
  // device's share of the per-session tables plus the chunks (stored once here), over one home.
  const chunkBytes = Number(tables.find((t) => t.name === 'chunks')?.bytes ?? 0);
  const perSession = tables.reduce((n, t) => n + Number(t.bytes), 0) - chunkBytes;
  const distinct = chunkBytes + perSession / devices;
  row(
    'PostgreSQL tables per distinct transcript',
    `${mb(distinct)} / ${mb(home.bytes)}`,
    `${((100 * distinct) / home.bytes).toFixed(1)} %: chunks + per-session tables / ${devices}, the empty database left out`,
  );

  // Every table's rows by the transaction that wrote them (xmin): equal before and after only if no row was written.
  const fingerprint = async () => {
    const out = new Map();
    for (const { name } of tables) {
      const [r] = await sql`select count(*)::bigint as n, coalesce(sum(xmin::text::bigint), 0)::text as x
                            from ${sql(`agentdash.${name}`)}`;
      out.set(name, r);
    }
    return out;
  };
  const before = await fingerprint();
  const again = JSON.parse((await pushOne(tokens[0])).stdout);
  const after = await fingerprint();
  const touched = [...before].filter(([name, r]) => after.get(name).n !== r.n || after.get(name).x !== r.x);
  row(
    'unchanged re-push (one device)',
    `${again.bytesSent.toLocaleString('en-US')} bytes, ${touched.length === 0 ? 'no row written' : `rows written in ${touched.map(([n]) => n).join(', ')}`}`,
    `${(again.bytesSent / Math.max(1, again.sessions)).toFixed(0)} bytes per session (goal ≤ 1 KB); ${again.stored} stored`,
  );
  await sql.end();
} finally {
  server?.stop();
  await pg.stop();
  rmSync(work, { recursive: true, force: true });
}

console.log('\n| figure | value | note |\n|---|---|---|');
for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.note} |`);
