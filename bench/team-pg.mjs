// The team bench's measurements of its processes and its copy of pushed rows (bench/team.mjs).
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds of process `pid` (user + system), with its children that exited when `reaped`; 0 once it is gone. */
export function cpuOf(pid, reaped = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = fields.slice(11, reaped ? 15 : 13).reduce((n, f) => n + Number(f), 0);
    return ticks / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the PostgreSQL listening on `port`: the postmaster, its exited backends, and the live ones. */
export function postgresCpu(port) {
  const stats = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      stats.push({ pid, ppid: stat.split(') ')[1].split(' ')[1], cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') });
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
  const tables = ['sessions', 'calls', 'responses', 'files', 'file_chunks', 'search_words'];
  const columns = new Map();
  for (const t of tables) {
    const cols = await sql`select column_name from information_schema.columns
      where table_schema = 'agentdash' and table_name = ${t} and is_generated = 'NEVER' order by ordinal_position`;
    columns.set(
      t,
      cols.map((c) => c.column_name),
    );
  }
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
