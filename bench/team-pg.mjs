// The team bench's measurements of its processes and its copy of pushed rows (bench/team.mjs).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startLocalPostgres } from '../packages/team/dist/pg/local-postgres.js';
import { cpuSeconds, statFields } from './proc.mjs';

const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;

/** CPU seconds of process `pid` (user + system), with its children that exited when `reaped`; 0 once it is gone. */
export function cpuOf(pid, reaped = false) {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields === undefined ? 0 : cpuSeconds(fields, reaped);
}

/** CPU seconds of the PostgreSQL listening on `port`: the postmaster, its exited backends, and the live ones. */
export function postgresCpu(port) {
  const stats = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = statFields(`/proc/${pid}/stat`);
      if (fields === undefined) continue;
      stats.push({ pid, ppid: fields[1], cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
    } catch {}
  }
  const master = stats.find((s) => s.cmd.split('\0').includes(String(port)));
  if (!master) return 0;
  return stats.filter((s) => s.ppid === master.pid).reduce((n, s) => n + cpuOf(s.pid), cpuOf(master.pid, true));
}

/**
 * Devices `pushers`‥`devices - 1` (people p<i>) get the sessions of device `i % pushers` as that device stored them:
 * each table a push writes, copied under the other person and device, every session under a new uid.
 */
export async function copyDevices(sql, pushers, devices) {
  const people = new Map(
    (
      await sql`select p.name, p.id, d.id as device from agentdash.people p join agentdash.devices d on d.person_id = p.id`
    ).map((r) => [r.name, { person: Number(r.id), device: Number(r.device) }]),
  );
  const every = ['sessions', 'calls', 'responses', 'files', 'file_chunks', 'search_words', 'search_docs'];
  const columns = new Map();
  for (const t of every) {
    const cols = await sql`select column_name from information_schema.columns
      where table_schema = 'agentdash' and table_name = ${t} and is_generated = 'NEVER' order by ordinal_position`;
    columns.set(
      t,
      cols.map((c) => c.column_name),
    );
  }
  // a table this schema does not have yet (an older kept database) is left out
  const tables = every.filter((t) => columns.get(t).length > 0);
  let copied = 0;
  for (let i = pushers; i < devices; i += 1) {
    const from = people.get(`p${i % pushers}`);
    const to = people.get(`p${i}`);
    await sql.begin(async (tx) => {
      for (const t of tables) {
        const cols = columns.get(t);
        const value = (c) =>
          c === 'person_id'
            ? `${to.person}`
            : c === 'device_id'
              ? `${to.device}`
              : c === 'uid'
                ? `substr(md5(uid || '/${to.person}'), 1, 32)`
                : `"${c}"`;
        const r = await tx.unsafe(
          `insert into agentdash.${t} (${cols.map((c) => `"${c}"`).join(', ')})
           select ${cols.map(value).join(', ')} from agentdash.${t} where person_id = ${from.person}`,
        );
        if (t === 'sessions') copied += r.count;
      }
    });
  }
  await sql`analyze`;
  return copied;
}

/**
 * BENCH_TEAM_PGSTAT=1: PostgreSQL with `pg_stat_statements` (statements inside the triggers too), so the push section
 * names the statements PostgreSQL spent its time on. It needs a restart, so the cluster is created in a folder of its
 * own (or the kept one), set up, and started again.
 */
export async function startPostgres(keptData) {
  if (process.env.BENCH_TEAM_PGSTAT !== '1')
    return await startLocalPostgres(keptData === undefined ? {} : { data: keptData });
  const folder = keptData === undefined ? mkdtempSync(join(tmpdir(), 'agentdash-team-pgstat-')) : undefined;
  // the user that runs PostgreSQL must reach its data directory
  if (folder) chmodSync(folder, 0o755);
  const data = keptData ?? join(folder, 'data');
  const first = await startLocalPostgres({ data });
  const setup = postgres(first.urlOf('postgres'), { max: 1, onnotice: () => {} });
  await setup`alter system set shared_preload_libraries = 'pg_stat_statements'`;
  await setup.end();
  await first.stop();
  const started = await startLocalPostgres({ data });
  const sql = postgres(started.urlOf('postgres'), { max: 1, onnotice: () => {} });
  await sql`create extension if not exists pg_stat_statements`;
  await sql`alter system set pg_stat_statements.track = 'all'`;
  await sql`select pg_reload_conf()`;
  await sql.end();
  return {
    ...started,
    async stop() {
      await started.stop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL's statements by the time they took since `pg_stat_statements_reset()` (a `startPostgres` with them). */
export async function topStatements(sql, limit = 10) {
  const top = await sql`select calls::int, total_exec_time as ms, rows::bigint,
      regexp_replace(query, '[[:space:]]+', ' ', 'g') as query
    from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit ${limit}`;
  const [{ all }] = await sql`select coalesce(sum(total_exec_time), 0) as all from pg_stat_statements`;
  console.error(
    `  PostgreSQL's statements during the push (pg_stat_statements, ${ms(Number(all))} in all; nested ones counted inside their callers too):`,
  );
  for (const t of top) {
    console.error(
      `    ${ms(Number(t.ms)).padStart(9)}  ${String(t.calls).padStart(6)} calls  ${String(t.rows).padStart(8)} rows  ${t.query.slice(0, 110)}`,
    );
  }
}

/**
 * The push's CPU per MB of transcript on each side (what it costs whatever else shares the machine), and the issue's
 * run (a 1 GiB home from 20 devices) at that CPU per MB with every core busy: rows of [figure, value, note].
 */
export function pushCost({ bytes, ms: wallMs, cpu, cores }) {
  const mb = bytes / 2 ** 20;
  const perMb = (s) => `${Math.round((1000 * s) / mb)} ms`;
  const cpuPerMb = (cpu.server + cpu.pushes + cpu.pg) / mb;
  const issueMb = 20 * 1024;
  const issueS = (cpuPerMb * issueMb) / cores;
  return [
    [
      'push CPU per MB of transcript',
      `laptop ${perMb(cpu.pushes)}, team server ${perMb(cpu.server)}, PostgreSQL ${perMb(cpu.pg)}`,
      `${(1 / cpuPerMb).toFixed(1)} MB of transcript per CPU second; the laptop's includes each push's start`,
    ],
    [
      `1 GiB × 20 devices at this CPU per MB on ${cores} cores`,
      `${(issueS / 60).toFixed(0)} min`,
      `${(issueMb / issueS).toFixed(1)} MB/s with every core busy; measured here ${(mb / (wallMs / 1000)).toFixed(1)} MB/s`,
    ],
  ];
}
