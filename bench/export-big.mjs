#!/usr/bin/env node
// Exports of a session of many calls: a generated Claude Code session of EXPORT_CALLS tool calls (default 50,000;
// each a real call and result of the corpus's long session, with fresh ids and times), indexed, then
// `agentdash export --format html|json -o FILE` and `agentdash show --json` into a file, timed as whole processes
// with their peak RSS. EXPORT_SIZES=12500,25000,50000 runs each size (time linear in size reads as a constant
// ms/call); EXPORT_WHAT=html,json,show picks the commands; EXPORT_PROFILE=DIR writes CPU profiles of the CLI there;
// EXPORT_BIN=path/to/agentdash.js measures another build's CLI; EXPORT_HEAP_MB=64 gives the measured CLI that
// heap (--max-old-space-size: a session bigger than the heap is written as it is read); EXPORT_KEEP=1 keeps the
// generated home and index (and prints where).
// Measured, never asserted.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bin as builtBin, root } from './setup.mjs';

const bin = process.env.EXPORT_BIN ? resolve(process.env.EXPORT_BIN) : builtBin;
/** Node options of the measured CLI (not of the indexing run). */
const heap = process.env.EXPORT_HEAP_MB ? [`--max-old-space-size=${Number(process.env.EXPORT_HEAP_MB)}`] : [];

const corpusLong = resolve(
  root,
  '../shared/corpus/2.1.330/claude-home/projects/-home-user-proj-long/f3084ede-c583-4ff1-b085-1a87d7d04d09.jsonl',
);
const source = existsSync(corpusLong) ? corpusLong : undefined;
const sizes = (process.env.EXPORT_SIZES || process.env.EXPORT_CALLS || '50000').split(',').map(Number);

/** Pairs of (assistant line with one tool_use, user line with its tool_result) from a real session. */
function templates() {
  if (!source) throw new Error('../shared/corpus is not here: export-big needs its long session');
  const records = readFileSync(source, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const results = new Map();
  for (const r of records) {
    const block = Array.isArray(r.message?.content) ? r.message.content[0] : undefined;
    if (r.type === 'user' && block?.type === 'tool_result') results.set(block.tool_use_id, r);
  }
  const pairs = [];
  for (const r of records) {
    const content = r.message?.content;
    if (r.type !== 'assistant' || !Array.isArray(content) || content.length !== 1) continue;
    if (content[0].type !== 'tool_use') continue;
    const result = results.get(content[0].id);
    // small results: a session of many ordinary calls, not of a few huge outputs
    if (result && JSON.stringify(result).length < 4000) pairs.push([r, result]);
  }
  const prompt = records.find((r) => r.type === 'user' && typeof r.message?.content === 'string');
  return { prompt, pairs };
}

async function generate(dir, calls) {
  const { prompt, pairs } = templates();
  const sessionId = `b16${String(calls).padStart(5, '0')}-0000-4000-8000-000000000000`;
  const file = join(dir, 'home', 'projects', '-bench-calls', `${sessionId}.jsonl`);
  mkdirSync(join(dir, 'home', 'projects', '-bench-calls'), { recursive: true });
  const out = createWriteStream(file);
  const write = async (r) => {
    if (!out.write(`${JSON.stringify(r)}\n`)) await new Promise((done) => out.once('drain', done));
  };
  const t0 = Date.parse('2026-11-01T09:00:00Z');
  const uuid = (n, kind) => `${kind}${n.toString(16).padStart(7, '0')}-0000-4000-8000-000000000000`;
  let parent = uuid(0, 'p');
  await write({ ...prompt, uuid: parent, parentUuid: null, sessionId, timestamp: new Date(t0).toISOString() });
  for (let i = 0; i < calls; i++) {
    const [call, result] = pairs[i % pairs.length];
    const id = `toolu_bench${i.toString(36).padStart(12, '0')}`;
    const a = uuid(i, 'a');
    const u = uuid(i, 'c');
    const at = t0 + i * 2000;
    await write({
      ...call,
      uuid: a,
      parentUuid: parent,
      sessionId,
      timestamp: new Date(at).toISOString(),
      requestId: `req_bench${i}`,
      message: { ...call.message, id: `msg_bench${i}`, content: [{ ...call.message.content[0], id }] },
    });
    await write({
      ...result,
      uuid: u,
      parentUuid: a,
      sessionId,
      timestamp: new Date(at + 900).toISOString(),
      sourceToolAssistantUUID: a,
      message: { ...result.message, content: [{ ...result.message.content[0], tool_use_id: id }] },
    });
    parent = u;
  }
  await new Promise((done) => out.end(done));
  return { file, sessionId, bytes: statSync(file).size };
}

/** A CLI command as a whole process: wall time and peak RSS (GNU time), its output into `outFile`. */
function run(args, outFile, options = heap) {
  const t0 = performance.now();
  const prof = process.env.EXPORT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EXPORT_PROFILE}`] : [];
  const res = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...options, ...prof, bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', outFile ? 'ignore' : 'pipe', 'pipe'],
    shell: false,
  });
  const ms = performance.now() - t0;
  if (res.status !== 0) throw new Error(`${args.join(' ')}: exit ${res.status}\n${res.stderr}`);
  const rssKb = Number(res.stderr.trim().split('\n').at(-1));
  return { ms, rssMb: Math.round(rssKb / 1024) };
}

/** Which commands to time (EXPORT_WHAT=html,json,show; default all three), each into a file. */
const what = (process.env.EXPORT_WHAT || 'html,json,show').split(',');
const commands = {
  html: (sessionId, db, home, file) => ['export', sessionId, '--format', 'html', '-o', file, '--db', db, home],
  json: (sessionId, db, home, file) => ['export', sessionId, '--format', 'json', '-o', file, '--db', db, home],
};

console.log(
  `| calls | transcript | ${what.map((w) => (w === 'show' ? 'show --json' : `export --format ${w}`)).join(' | ')} |`,
);
console.log(`|---:|---:|${what.map(() => '---:|').join('')}`);
for (const calls of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-export-big-'));
  try {
    const { sessionId, bytes } = await generate(dir, calls);
    const db = join(dir, 'index.sqlite');
    const home = join(dir, 'home');
    run(['index', home, '--db', db, '--no-progress'], undefined, []);
    const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
    const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const cells = [];
    for (const w of what) {
      const out = join(dir, `out.${w}`);
      const r = w === 'show' ? show(sessionId, db, home, out) : run(commands[w](sessionId, db, home, out), out);
      cells.push(`${sec(r.ms)}, RSS ${r.rssMb} MB, ${mb(statSync(out).size)}`);
      rmSync(out);
    }
    console.log(`| ${calls.toLocaleString('en')} | ${mb(bytes)} | ${cells.join(' | ')} |`);
  } finally {
    if (process.env.EXPORT_KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** show --json into a file, through the shell so the CLI writes to a file, not a pipe read here. */
function show(sessionId, db, home, file) {
  const t0 = performance.now();
  const s = spawnSync(
    '/bin/sh',
    [
      '-c',
      `/usr/bin/time -f %M "$0" $6 "$1" show "$2" --json --db "$3" "$4" > "$5"`,
      process.execPath,
      bin,
      sessionId,
      db,
      home,
      file,
      [
        ...heap,
        ...(process.env.EXPORT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EXPORT_PROFILE}`] : []),
      ].join(' '),
    ],
    { encoding: 'utf8' },
  );
  const ms = performance.now() - t0;
  if (s.status !== 0) throw new Error(`show --json: exit ${s.status}\n${s.stderr}`);
  return { ms, rssMb: Math.round(Number(s.stderr.trim().split('\n').at(-1)) / 1024) };
}
