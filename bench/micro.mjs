#!/usr/bin/env node
// AgentDash benchmarks. Speed and memory are measured here, never asserted in tests.
// Usage: npm run bench -- micro [core|index] ; compare numbers as ratios within one run (machines are noisy).
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { appendFile, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const core = {
  ...(await import(join(root, 'packages/core/dist/index.js'))),
  // Not in core's public API: measured all the same.
  ...(await import(join(root, 'packages/core/dist/io/read-lines.js'))),
};
const which = process.argv[3] ?? 'all';
const corpus = resolve(root, '../shared/corpus');
const samples = join(root, 'packages/cli/samples/claude-home');
const rows = [];

function mb(bytes) {
  return bytes / (1024 * 1024);
}
async function measure(name, bytes, fn, runs = 3) {
  const times = [];
  let peak = 0;
  let result;
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const base = process.memoryUsage().rss;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base);
    }, 20);
    const t0 = performance.now();
    result = await fn();
    times.push(performance.now() - t0);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss - base);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  rows.push({
    bench: name,
    'median ms': median.toFixed(1),
    'MB/s': bytes ? (mb(bytes) / (median / 1000)).toFixed(1) : '',
    'peak ΔRSS MB': mb(peak).toFixed(0),
    note: result ?? '',
  });
}

async function generate(file, targetBytes) {
  const out = createWriteStream(file);
  let bytes = 0;
  let i = 0;
  while (bytes < targetBytes) {
    const line = `${JSON.stringify({ type: 'user', uuid: `u${i}`, parentUuid: null, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(1200) }] } })}\n`;
    bytes += line.length;
    i += 1;
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  return bytes;
}

const tmp = await mkdtemp(join(tmpdir(), 'agentdash-bench-'));
try {
  const home = existsSync(corpus) ? join(corpus, '2.1.330/claude-home') : samples;
  const { files } = await core.discoverFiles([home]);
  const groups = core.groupSessions(files);
  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const longest = [...groups].sort((a, b) => (b.main?.size ?? 0) - (a.main?.size ?? 0))[0];

  if (which === 'all' || which === 'core') {
    const big = join(tmp, 'big.jsonl');
    const bigBytes = await generate(big, 200 * 1024 * 1024);
    await measure('core: readLines, 200 MB generated', bigBytes, async () => {
      let n = 0;
      await core.readLines(big, () => (n += 1));
      return `${n} lines`;
    });
    await measure('core: streamRecords (read+decode), 200 MB', bigBytes, async () => {
      let n = 0;
      await core.streamRecords(big, () => (n += 1));
      return `${n} records`;
    });
    await measure(
      `core: loadSession, longest session (${mb(longest.main.size).toFixed(1)} MB)`,
      longest.main.size,
      async () => {
        const s = await core.loadSession(longest);
        return `${s.calls.length} calls, ${s.events.length} events`;
      },
    );
    const loaded = await core.loadSession(longest);
    await measure(
      'core: waterfall of the longest session',
      0,
      async () => `${core.waterfallOf(loaded).lanes.reduce((n, l) => n + l.calls.length, 0)} bars`,
      5,
    );
    await measure(`core: discover + load all sessions (${files.length} files)`, totalBytes, async () => {
      const d = await core.discoverFiles([home]);
      let calls = 0;
      for (const g of core.groupSessions(d.files)) calls += (await core.loadSession(g)).calls.length;
      return `${calls} calls`;
    });
  }

  if ((which === 'all' || which === 'index') && existsSync(join(root, 'packages/index/dist/index.js'))) {
    const index = await import(join(root, 'packages/index/dist/index.js'));
    if (typeof index.openIndex === 'function') {
      const db = join(tmp, 'bench.sqlite');
      await measure('index: cold refresh (empty db)', totalBytes, async () => {
        await rm(db, { force: true });
        await rm(`${db}-wal`, { force: true });
        await rm(`${db}-shm`, { force: true });
        const ix = index.openIndex({ dbPath: db });
        const r = await ix.refresh([home]);
        ix.close();
        return `${r.filesParsed} files, ${r.records} records`;
      });
      await measure('index: warm refresh (nothing new)', 0, async () => {
        const ix = index.openIndex({ dbPath: db });
        const r = await ix.refresh([home]);
        ix.close();
        return `${r.bytesParsed} bytes parsed`;
      });
      const copyDir = join(tmp, 'append/projects/p');
      await rm(join(tmp, 'append'), { recursive: true, force: true });
      await import('node:fs/promises').then((fs) => fs.mkdir(copyDir, { recursive: true }));
      const target = join(copyDir, 's.jsonl');
      await copyFile(longest.main.path, target);
      const ix = index.openIndex({ dbPath: join(tmp, 'append.sqlite') });
      await ix.refresh([join(tmp, 'append')]);
      const tail = readFileSync(longest.main.path, 'utf8').split('\n').slice(-40).join('\n');
      await measure('index: refresh after appending 40 lines to the longest session', tail.length, async () => {
        await appendFile(target, `${tail}\n`);
        const r = await ix.refresh([join(tmp, 'append')]);
        return `${r.bytesParsed} bytes parsed`;
      });
      ix.close();
      const full = index.openIndex({ dbPath: db });
      await measure(
        'index: stats over all sessions',
        0,
        async () => `${Object.keys(full.stats().tools ?? {}).length} tools`,
        5,
      );
      await measure('index: search "error"', 0, async () => `${full.search('error').length} hits`, 5);
      await measure(
        'index: usage daily over all sessions (each response once, priced, by day)',
        0,
        async () => {
          const responses = full.usageResponses();
          const days = core.groupUsage(responses, (r) => core.periodKey(r.timestampMs ?? 0, 'day'));
          return `${responses.length} responses, ${days.size} days`;
        },
        5,
      );
      full.close();
    }
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}

console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
);
console.log('| bench | median ms | MB/s | peak ΔRSS MB | note |\n|---|---:|---:|---:|---|');
for (const r of rows)
  console.log(`| ${r.bench} | ${r['median ms']} | ${r['MB/s']} | ${r['peak ΔRSS MB']} | ${r.note} |`);
