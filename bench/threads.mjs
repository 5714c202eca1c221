// Where a command's CPU goes, thread by thread (Linux): runs it, reads /proc/<pid>/task/*/stat every
// BENCH_SAMPLE_MS (default 100) and prints each thread's user+system CPU as last seen before the command exited, the
// sum, the wall, and with --series the CPU of the main thread, the busiest other thread and the rest per interval.
// A CPU profile (node --cpu-prof) samples wall time per thread: on a machine whose cores are all busy a thread
// waiting for one is charged to the function it was in, so totals per thread come from here.
//
//   node bench/threads.mjs [--series] -- node packages/cli/bin/agentdash.js index <home> --db <new db> --json
//
// Threads are named `main` and `+N`, N their id's distance from main's: Node starts its platform threads (V8's
// concurrent GC and compilers, four by default) just after main, libuv's pool and worker threads later.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpuSeconds, statFields } from './proc.mjs';

const argv = process.argv.slice(2);
const series = argv.includes('--series');
const command = argv.slice(argv.indexOf('--') + 1);
if (!argv.includes('--') || command.length === 0) {
  console.error('usage: node bench/threads.mjs [--series] -- COMMAND [ARGS…]');
  process.exit(2);
}
const stepMs = Number(process.env.BENCH_SAMPLE_MS) || 100;

/** CPU seconds of each thread of `pid` now, by thread id. */
function threadCpu(pid) {
  const out = new Map();
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    // undefined: the thread ended between the listing and the read
    if (fields !== undefined) out.set(Number(tid), cpuSeconds(fields));
  }
  return out;
}

const started = performance.now();
const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
const last = new Map();
let before = new Map();
const rows = [];
const sample = () => {
  const now = threadCpu(child.pid);
  for (const [tid, s] of now) last.set(tid, s);
  if (series && now.size > 0) {
    const delta = [...now].map(([tid, s]) => [tid, s - (before.get(tid) ?? 0)]);
    const main = delta.find(([tid]) => tid === child.pid)?.[1] ?? 0;
    const others = delta.filter(([tid]) => tid !== child.pid).map(([, d]) => d);
    const busiest = Math.max(0, ...others);
    const rest = others.reduce((a, b) => a + b, 0) - busiest;
    rows.push(
      `${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  main ${main.toFixed(2)}  busiest other ${busiest.toFixed(2)}  rest ${rest.toFixed(2)}`,
    );
    before = now;
  }
};
const timer = setInterval(sample, stepMs);
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
clearInterval(timer);
const wall = (performance.now() - started) / 1000;

if (series) console.log(rows.join('\n'));
const tids = [...last.keys()].sort((a, b) => a - b);
let sum = 0;
for (const tid of tids) {
  const s = last.get(tid) ?? 0;
  sum += s;
  const name = tid === child.pid ? 'main' : `+${tid - child.pid}`;
  if (s >= 0.01) console.log(`${name.padEnd(12)} ${s.toFixed(2).padStart(7)} s`);
}
console.log(`${'sum'.padEnd(12)} ${sum.toFixed(2).padStart(7)} s   wall ${wall.toFixed(2)} s   exit ${code}`);
console.log(`(CPU as last sampled, up to ${stepMs} ms before the exit: a little below the process's total)`);
process.exitCode = code;
