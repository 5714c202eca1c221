// The fidelity matrix (issue 37 item 6): one row per agent and recorded client version, pass or FAIL per gate, the
// evidence behind each cell. The rows are every recording bundled as a fixture (packages/core/test/fixtures/<agent>/
// <version>/, a manifest and a truth beside the home: what `npm run drift` adds when it finds a new version), the
// collected Aider histories, and, when ../shared is present, the corpus versions the corpus suites read. Each adapter
// reads its files the way the dashboard does (discover → load each session); the shared conformance suite's line
// check runs over them; tokens are compared with the truth response by response. Writes docs/fidelity.md. Run by
// `npm run fidelity` and at the end of `npm run drift`. Needs a build (`npm run build`).
//
//   node scripts/fidelity.mjs [--check]   (--check: exit 1 when docs/fidelity.md differs from what it would write)
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { driftAgents, root, shared } from './drift/agents.mjs';
import { adapterOf, compareTokens, loadAll, readServed } from './drift/check.mjs';
import { costGate, reportedCosts, servedModels } from './drift/cost.mjs';

const core = await import(join(root, 'packages/core/dist/index.js'));
const { conformanceCases } = await import(join(root, 'packages/core/dist/agents/conformance.js'));
const { defaultPriceTable, findPrice } = core;
const { normalizeModelId } = await import(join(root, 'packages/core/dist/usage/pricing.js'));
const fixtures = join(root, 'packages/core/test/fixtures');
const rel = (path) => (path.startsWith(root) ? path.slice(root.length + 1) : path.replace(shared, '../shared'));

/** The rows: recordings bundled as fixtures, the Aider collection, the corpus versions of ../shared. */
function rowsToMeasure() {
  const rows = [];
  for (const entry of driftAgents) {
    if (entry.fixtures === undefined || !existsSync(entry.fixtures)) continue;
    for (const version of readdirSync(entry.fixtures).sort()) {
      const dir = join(entry.fixtures, version);
      if (!existsSync(join(dir, 'manifest.json')) || !existsSync(join(dir, entry.home))) continue;
      rows.push({ agent: entry.agent, version: `${version} (recorded)`, roots: [join(dir, entry.home)], truth: dir });
    }
  }
  rows.push({
    agent: 'aider',
    version: '0.x (public histories, SOURCES.md)',
    roots: [join(fixtures, 'aider')],
    tokens: "no truth: Aider's rounded report only, approximate",
    // Markdown blocks span lines: every non-blank line must fall in exactly one block, each block read as a record.
    lines: 'blocks',
    costs: 'reported',
    time: 'Aider writes no per-message times (only when each run started): none are made up',
  });
  const corpora = [
    ['claude', join(shared, 'corpus'), 'claude-home', 'packages/core/test/usage-corpus.test.ts'],
    ['codex', join(shared, 'corpus-agents/codex'), 'codex-home', 'packages/core/test/codex-corpus.test.ts'],
    ['gemini', join(shared, 'corpus-agents/gemini'), 'gemini-home/.gemini', 'packages/core/test/gemini-corpus.test.ts'],
  ];
  for (const [agent, dir, home, test] of corpora) {
    if (!existsSync(dir)) continue;
    for (const version of readdirSync(dir).filter((v) => existsSync(join(dir, v, home)))) {
      rows.push({
        agent,
        version: `${version} (corpus)`,
        roots: [join(dir, version, home)],
        tokens: `by ${test}`,
        served: join(dir, version, 'truth.jsonl'),
      });
    }
  }
  return rows;
}

const of = (n, d) => (d === 0 ? 'none' : `${n}/${d}`);

/** Aider: the lines no block covers, or more than one does, and the blocks read as no record. */
async function blocksAccounted(adapter, files) {
  const { aiderBlocks } = await import(join(root, 'packages/core/dist/adapters/aider/blocks.js'));
  const lost = [];
  for (const file of files) {
    const text = readFileSync(file.path, 'utf8');
    const covered = new Map();
    const blocks = aiderBlocks(text);
    for (const b of blocks) for (let n = b.startLine; n <= b.endLine; n += 1) covered.set(n, (covered.get(n) ?? 0) + 1);
    text.split('\n').forEach((line, i) => {
      if (line.trim() !== '' && covered.get(i + 1) !== 1) lost.push(`${file.path}:${i + 1}`);
    });
    const starts = new Set();
    await adapter.streamRecords(file, (e) => e.kind === 'record' && starts.add(e.record.loc.line), {});
    for (const b of blocks) if (!starts.has(b.startLine)) lost.push(`${file.path}:${b.startLine} (block unread)`);
  }
  return lost;
}

async function linesAccounted(adapter, roots) {
  const scratch = mkdtempSync(join(tmpdir(), 'agentdash-fidelity-'));
  try {
    const check = conformanceCases({ adapter, fixtures: roots, scratchDir: scratch }).find((c) =>
      c.check.startsWith('accounts for every line'),
    );
    return await check.run();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function measure(row) {
  const adapter = adapterOf(row.agent);
  const { files, sessions } = await loadAll(adapter, row.roots);
  let records = 0;
  let issues = 0;
  for (const file of files) {
    await adapter.streamRecords(
      file,
      (e) => {
        if (e.kind === 'record') records += 1;
        else issues += 1;
      },
      {},
    );
  }
  // A session kept as one JSON document (Gemini before 0.30) is read whole: its lines are not records.
  const documents = files.filter((f) => f.path.endsWith('.json')).length;
  const lost =
    row.lines === 'blocks'
      ? await blocksAccounted(adapter, files)
      : (await linesAccounted(adapter, row.roots)).filter((f) => !/\.json\b(?!l)/.test(f));
  const calls = sessions.flatMap((s) => [...s.calls]);
  const paired = calls.filter((c) => c.result !== undefined);
  // A call the client never answered (killed mid-call, as the recordings' interrupt scenarios do) has no result to
  // pair: AgentDash calls it unanswered, and no other line of the files names its id.
  const mentions = (id) =>
    files.reduce(
      (n, f) =>
        n +
        readFileSync(f.path, 'utf8')
          .split('\n')
          .filter((l) => l.includes(id)).length,
      0,
    );
  const noResult = calls.filter((c) => c.result === undefined && c.status === 'unanswered' && mentions(c.id) === 1);
  const unpaired = calls.filter((c) => c.result === undefined && !noResult.includes(c));
  const typed = paired.filter((c) => c.result.typed.kind !== 'unknown');
  const failed = calls.filter((c) => c.status === 'error');
  const classified = failed.filter((c) => c.result?.error?.category !== undefined);
  const models = [...new Set(sessions.flatMap((s) => s.models))].sort();
  const subFiles = files.filter((f) => f.role === 'subagent').length;
  const subLinked = sessions.reduce((n, s) => n + s.subagents.length, 0);
  const timed = calls.filter((c) => c.durations.length > 0);
  let tokens = { ok: true, na: true, evidence: row.tokens };
  if (row.truth !== undefined) {
    const t = await compareTokens(adapter, files, sessions, readServed(row.truth));
    tokens = {
      ok: t.mismatched.length === 0 && t.compared > 0,
      evidence: `${t.compared - t.mismatched.length}/${t.compared} equal (by ${t.by}), ${t.unrecorded.length} responses not written by the client`,
    };
  }
  return {
    sessions: { ok: sessions.length > 0, evidence: `${sessions.length} sessions, ${files.length} files` },
    lines: {
      ok: lost.length === 0,
      evidence: `${records} records, ${issues} issues${documents === 0 ? '' : `, ${documents} JSON documents read whole`}${lost.length === 0 ? '' : `; ${lost.length} lost: ${lost.slice(0, 3).join('; ')}`}`,
    },
    paired: {
      ok: unpaired.length === 0,
      evidence: `${of(paired.length, calls.length)}${
        noResult.length === 0
          ? ''
          : `; ${noResult.length} never answered in the file (${noResult.map((c) => c.id).join(', ')}: no other line names it)`
      }${unpaired.length === 0 ? '' : `; unpaired: ${unpaired.map((c) => c.id).join(', ')}`}`,
    },
    typed: { ok: typed.length === paired.length, evidence: of(typed.length, paired.length) },
    errors: { ok: classified.length === failed.length, evidence: of(classified.length, failed.length) },
    tokens,
    cost: costGate({
      models,
      price: (model) => findPrice(defaultPriceTable, model),
      normalize: normalizeModelId,
      served: servedModels(row.served ?? (row.truth === undefined ? undefined : join(row.truth, 'truth.jsonl'))),
      reports: row.costs === 'reported' ? reportedCosts(files.map((f) => f.path)) : [],
    }),
    subagents: { ok: subLinked >= subFiles, evidence: subFiles === 0 ? 'none in the files' : of(subLinked, subFiles) },
    time:
      row.time === undefined
        ? {
            ok: timed.length === calls.length - noResult.length,
            evidence: `${of(timed.length, calls.length - noResult.length)} answered calls timed`,
          }
        : { ok: true, na: true, evidence: row.time },
    resume: {
      ok: true,
      evidence: adapter.resume === null ? 'none (the agent has none)' : `\`${adapter.resume.join(' ')} <id>\``,
    },
  };
}

const gates = [
  ['sessions', 'sessions found'],
  ['lines', 'every line accounted for'],
  ['paired', 'calls paired'],
  ['typed', 'results typed'],
  ['errors', 'errors classified'],
  ['tokens', 'tokens = truth'],
  ['cost', 'cost priced'],
  ['subagents', 'subagents linked'],
  ['time', 'time breakdown'],
  ['resume', 'resume command'],
];
const verdict = (cell) => cell.state ?? (cell.na ? 'n/a' : cell.ok ? 'pass' : 'FAIL');

/** Measure every row and write docs/fidelity.md; returns its text. */
export async function renderFidelity() {
  const rows = rowsToMeasure();
  const measured = [];
  for (const row of rows) measured.push({ row, m: await measure(row) });
  const out = [
    '# Fidelity matrix',
    '',
    'Generated by `npm run fidelity` and at the end of `npm run drift` (do not edit by hand): one row per agent and',
    'recorded client version: every recording bundled as a fixture (`npm run drift` adds the newest version it',
    'finds), the collected Aider histories, and the Claude Code, Codex and Gemini corpus versions when `../shared` is',
    'present. "every line accounted for" is the shared conformance check; "tokens = truth" compares each response',
    'the client wrote with what the scripted model served (n/a: no truth, and where the corpus suite checks it).',
    '"cost priced" says "not priced (scripted model id)" for a model id only the scripted model served and no price',
    'list names (not a real model, so no price exists), "local model free" for a local server\'s model, and FAILs for',
    "a real model without a price or a cost the client reported that AgentDash's prices do not reproduce. Each row's",
    'evidence follows the table.',
    '',
    `| agent | version | ${gates.map(([, label]) => label).join(' | ')} |`,
    `|---|---|${gates.map(() => '---').join('|')}|`,
  ];
  for (const { row, m } of measured) {
    out.push(`| ${row.agent} | ${row.version} | ${gates.map(([key]) => verdict(m[key])).join(' | ')} |`);
  }
  out.push('');
  for (const { row, m } of measured) {
    out.push(`## ${row.agent} ${row.version}`, '', `Read from ${row.roots.map(rel).join(', ')}.`, '');
    out.push('| gate | result | evidence |', '|---|---|---|');
    for (const [key, label] of gates) out.push(`| ${label} | ${verdict(m[key])} | ${m[key].evidence} |`);
    out.push('');
  }
  return out.join('\n');
}

export async function writeFidelity() {
  writeFileSync(join(root, 'docs/fidelity.md'), await renderFidelity());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await renderFidelity();
  const target = join(root, 'docs/fidelity.md');
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      process.stderr.write('docs/fidelity.md is out of date: run npm run fidelity\n');
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
