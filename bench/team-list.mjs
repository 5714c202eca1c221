// `node bench/team-list.mjs`: the team sessions list, uncached, over a team database that already holds the pushed
// sessions (BENCH_TEAM_PG=postgres://…, e.g. the PostgreSQL of a kept `npm run bench -- team` run).
//
// A `serve --team` is started on it (the built CLI, which migrates the schema first) and asked for the list the way
// the dashboard asks: empty sessions hidden, 200 rows, with each filter a user changes (person, device, agent,
// project, model, version, dates, errors) and each sort. Before every request a change is announced on the database
// (the NOTIFY a push sends) and the server's live stream is awaited: the server has then dropped its kept totals and
// facets, so every request computes them, as the first request after a push, a filter change or 10 s does.
// BENCH_TEAM_LIST_ROUNDS (default 3) times each URL; p50/p95 are over every request, then per URL.
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { bin } from './setup.mjs';
import { cpuOf, postgresCpu } from './team-pg.mjs';
import { ms, pct } from './team-queries.mjs';

const pgUrl = process.env.BENCH_TEAM_PG;
if (!pgUrl) throw new Error('BENCH_TEAM_PG=postgres://… (a team database with pushed sessions) is required');
const rounds = Number(process.env.BENCH_TEAM_LIST_ROUNDS || 3);
const schema = process.env.BENCH_TEAM_SCHEMA || 'agentdash';

function cli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`agentdash ${args[0]}: ${err}`))));
  });
}

const sql = postgres(pgUrl, { max: 1, onnotice: () => {} });
const server = spawn(process.execPath, [bin, 'serve', '--team', '--pg', pgUrl, '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /"url":\s*"([^"]+)"/.exec(out);
      if (m) resolve(m[1].replace(/\/$/, ''));
    });
    server.once('exit', (code) => reject(new Error(`serve --team exited ${code}`)));
  });
  const viewer = `bench-list-${process.pid}`;
  const token = JSON.parse(await cli(['team', 'add-viewer', viewer, '--pg', pgUrl, '--json'])).token;
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path) => {
    const res = await fetch(url + path, { headers });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return await res.json();
  };

  // the live stream: each announced change arrives as `sessions-changed`, after the server dropped its kept answers
  const events = await fetch(`${url}/api/events`, { headers });
  const reader = events.body.getReader();
  let waiting;
  let seen = '';
  const listening = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      seen += new TextDecoder().decode(value);
      if (seen.includes('event: sessions-changed')) {
        seen = '';
        waiting?.();
      }
    }
  })();
  listening.catch((error) => console.error('the live stream ended:', error.message, seen));
  const dropKept = async () => {
    const changed = new Promise((resolve) => (waiting = resolve));
    await sql`select pg_notify('agentdash_changes', json_build_object('schema', ${schema}::text, 'uids', '{}'::text[])::text)`;
    await changed;
  };

  const [some] = await sql`select p.name as person, d.name as device, s.agent, s.models[1] as model,
      s.versions[1] as version, coalesce(s.project_path, s.project_dir) as project, s.started_ms
    from ${sql(schema)}.sessions s join ${sql(schema)}.people p on p.id = s.person_id
      join ${sql(schema)}.devices d on d.id = s.device_id
    order by s.started_ms desc nulls last limit 1 offset 100`;
  const day = (t) => new Date(Number(t)).toISOString().slice(0, 10);
  const base = '/api/sessions?limit=200&hideEmpty=1';
  const paths = [
    base,
    `${base}&person=${encodeURIComponent(some.person)}`,
    `${base}&device=${encodeURIComponent(`${some.person}/${some.device}`)}`,
    `${base}&agent=${encodeURIComponent(some.agent)}`,
    ...(some.project ? [`${base}&project=${encodeURIComponent(some.project.split('/').at(-1))}`] : []),
    ...(some.model ? [`${base}&model=${encodeURIComponent(some.model)}`] : []),
    ...(some.version ? [`${base}&version=${encodeURIComponent(some.version)}`] : []),
    `${base}&since=${day(Number(some.started_ms) - 7 * 86_400_000)}&until=${day(some.started_ms)}`,
    `${base}&hasErrors=1`,
    `${base}&sort=messages`,
    `${base}&sort=errors&dir=asc`,
    `${base}&sort=costUsd&offset=400`,
    '/api/sessions?limit=200',
  ];
  const [{ n }] = await sql`select count(*)::int as n from ${sql(schema)}.sessions`;
  console.error(`team list bench: ${n.toLocaleString('en-US')} sessions, ${paths.length} URLs × ${rounds}, uncached`);
  await get(base);
  const port = new URL(pgUrl).port || '5432';
  const cpu0 = { server: cpuOf(server.pid), pg: postgresCpu(port) };
  const all = [];
  const byPath = new Map(paths.map((p) => [p, []]));
  for (let r = 0; r < rounds; r += 1) {
    for (const path of paths) {
      await dropKept();
      const t0 = performance.now();
      const body = await get(path);
      const took = performance.now() - t0;
      all.push(took);
      byPath.get(path).push(took);
      if (r === 0) console.error(`  ${ms(took).padStart(8)}  ${path}  (${body.total} sessions)`);
    }
  }
  // CPU per request: the machine may be shared, CPU seconds are not
  const cpu = { server: cpuOf(server.pid) - cpu0.server, pg: postgresCpu(port) - cpu0.pg };
  console.error(
    `  CPU per request: team server ${ms((1000 * cpu.server) / all.length)}, PostgreSQL ${ms((1000 * cpu.pg) / all.length)}` +
      ' (the announcements and the live stream included)',
  );
  console.log(`\n| team sessions list, uncached (${n.toLocaleString('en-US')} sessions) | p50 / p95 |\n|---|---|`);
  console.log(`| every request (${all.length}) | ${ms(pct(all, 50))} / ${ms(pct(all, 95))} |`);
  for (const [path, xs] of byPath) console.log(`| \`${path}\` | ${ms(pct(xs, 50))} / ${ms(pct(xs, 95))} |`);
  await reader.cancel();
  await cli(['team', 'revoke', viewer, '--pg', pgUrl, '--json']);
} finally {
  server.kill('SIGTERM');
  await sql.end();
}
