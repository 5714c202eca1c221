// The drift check (issue 37 item 5): for each agent, install the newest published client into a temporary prefix
// (never globally), record the shared scenarios against the scripted model, read the recording with the adapter and
// the shared conformance suite, and print one table: client version, record types and fields no fixture or corpus
// holds, calls unpaired, tokens not equal to what was served. Exits 1 on any loss (a conformance failure, an
// unpaired call, calls or failures not equal to the manifest, tokens not equal to the truth, a client that could not
// be installed or recorded). A version no fixture holds yet is kept as a fixture (trimmed), and docs/fidelity.md is
// written again. Needs a build (`npm run build`). Run one at a time: installing and recording is CPU-heavy.
//
//   npm run drift [-- [agent…] [--from <recording>] [--keep] [--no-fixture] [--strict]]
//   --from: check a recording already made (one agent) instead of installing and recording
//   --keep: leave the install and recording in the temporary folder (its path is printed)
//   --strict: new record types or fields count as a loss too
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driftAgents, root } from './drift/agents.mjs';
import { adapterOf, compareManifest, compareTokens, loadAll, readServed, runConformance } from './drift/check.mjs';
import { newShapes, shapesOf } from './drift/shapes.mjs';
import { copyRecording } from './drift/trim.mjs';
import { writeFidelity } from './fidelity.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  if (at !== -1) args.splice(at, 1);
  return at !== -1;
};
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const from = option('--from');
const keep = flag('--keep');
const noFixture = flag('--no-fixture');
const strict = flag('--strict');
const unknown = args.filter((a) => !driftAgents.some((d) => d.agent === a));
if (unknown.length > 0) {
  process.stderr.write(`unknown agent ${unknown.join(', ')}: one of ${driftAgents.map((d) => d.agent).join(', ')}\n`);
  process.exit(2);
}
const chosen = driftAgents.filter((d) => args.length === 0 || args.includes(d.agent));
const say = (text) => process.stderr.write(`${text}\n`);

/** Whether the Python registry answers, and the newest version it lists. */
async function askPypi(pkg) {
  try {
    const res = await fetch(`https://pypi.org/pypi/${pkg}/json`, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) return { ok: false, why: `HTTP ${res.status}` };
    return { ok: true, version: (await res.json()).info?.version };
  } catch (error) {
    return { ok: false, why: error.cause?.code ?? error.message };
  }
}

function run(command, argv, options = {}) {
  const result = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** Install the newest client, record, check. One row of the table, with its details. */
async function driftOf(entry) {
  const row = { agent: entry.agent, version: '—', types: [], fields: [], unpaired: [], tokens: [], loss: [] };
  if (entry.registry === 'pypi') {
    const pypi = await askPypi(entry.pkg);
    row.skipped = pypi.ok
      ? `${entry.pkg} ${pypi.version} on the Python registry, but no recorder for it here: Aider is read from committed histories`
      : `the Python registry (pypi.org) is not reachable from here (${pypi.why}): ${entry.pkg} cannot be installed`;
    return row;
  }
  if (entry.recorder === undefined || !existsSync(join(root, entry.recorder))) {
    row.skipped = `no recorder in this tree yet (${entry.recorder ?? 'none'})`;
    return row;
  }
  const work = mkdtempSync(join(tmpdir(), `agentdash-drift-${entry.agent}-`));
  const recording = from ?? join(work, 'recording');
  try {
    if (from === undefined) {
      say(`${entry.agent}: installing ${entry.pkg}@latest into a temporary prefix`);
      const client = join(work, 'client');
      mkdirSync(client);
      const install = run('npm', [
        'install',
        '--prefix',
        client,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--loglevel=error',
        `${entry.pkg}@latest`,
      ]);
      if (!install.ok) {
        row.loss.push(`install failed: ${install.out.split('\n').slice(-3).join(' ')}`);
        return row;
      }
      say(`${entry.agent}: recording the scenarios`);
      const record = run(process.execPath, [join(root, entry.recorder), '--client', client, '--out', recording], {
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      if (!record.ok) {
        row.loss.push(`recording failed: ${record.out.split('\n').slice(-3).join(' ')}`);
        return row;
      }
    }
    const manifest = JSON.parse(readFileSync(join(recording, 'manifest.json'), 'utf8'));
    row.version = manifest.version;
    const adapter = adapterOf(entry.agent);
    const home = join(recording, entry.home);
    const { files, sessions } = await loadAll(adapter, [home]);
    const scenarios = new Set(manifest.scenarios.map((s) => s.scenario));
    const found = new Set(sessions.map((s) => (s.projectPath ?? '').split('/').pop()));
    for (const s of scenarios) if (!found.has(s)) row.loss.push(`scenario ${s}: no session found`);
    for (const failure of await runConformance(adapter, home)) row.loss.push(`conformance: ${failure}`);
    row.unpaired = sessions.flatMap((s) => s.calls.filter((c) => c.result === undefined).map((c) => String(c.id)));
    const calls = compareManifest(sessions, manifest);
    for (const p of calls.problems) row.loss.push(`manifest: ${p}`);
    const tokens = await compareTokens(adapter, files, sessions, readServed(recording));
    row.tokens = tokens.mismatched;
    row.tokensBy = `${tokens.compared} compared by ${tokens.by}`;
    row.unrecorded = tokens.unrecorded;
    row.calls = calls;
    const shapes = newShapes(shapesOf([home]), shapesOf(entry.baseline()));
    row.types = shapes.types;
    row.fields = shapes.fields;
    if (row.unpaired.length > 0) row.loss.push(`${row.unpaired.length} calls unpaired`);
    if (row.tokens.length > 0) row.loss.push(`${row.tokens.length} responses' tokens not equal to the truth`);
    if (strict && row.types.length + row.fields.length > 0) row.loss.push('new record types or fields (--strict)');
    const fixture = join(entry.fixtures, manifest.version);
    if (!noFixture && !existsSync(fixture)) {
      (entry.trim ?? copyRecording)(recording, fixture);
      row.fixture = fixture;
    }
    return row;
  } finally {
    if (keep) say(`${entry.agent}: kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

const rows = [];
for (const entry of chosen) rows.push(await driftOf(entry));

const cell = (list) => (list.length === 0 ? '0' : `${list.length}`);
const lines = [
  '| agent | client version | new record types | new fields | calls unpaired | tokens ≠ truth | result |',
  '|---|---|---|---|---|---|---|',
];
for (const r of rows) {
  const result = r.skipped !== undefined ? `skipped: ${r.skipped}` : r.loss.length > 0 ? 'LOSS' : 'ok';
  lines.push(
    `| ${r.agent} | ${r.version} | ${cell(r.types)} | ${cell(r.fields)} | ${cell(r.unpaired)} | ${cell(r.tokens)} | ${result} |`,
  );
}
const details = rows.flatMap((r) => [
  ...(r.tokensBy === undefined
    ? []
    : [`${r.agent}: tokens: ${r.tokensBy}; ${r.unrecorded.length} not written by the client`]),
  ...(r.calls === undefined
    ? []
    : [
        `${r.agent}: ${r.calls.calls} calls, ${r.calls.failed} failed, as the manifest says` +
          (r.calls.unchecked.length > 0 ? ` (not compared: ${r.calls.unchecked.join('; ')})` : ''),
      ]),
  ...r.types.map((t) => `${r.agent}: new record type ${t}`),
  ...r.fields.map((f) => `${r.agent}: new field ${f}`),
  ...r.loss.map((l) => `${r.agent}: LOSS ${l}`),
  ...(r.fixture === undefined
    ? []
    : [`${r.agent}: new version kept as a fixture in ${r.fixture.slice(root.length + 1)}`]),
]);
process.stdout.write(`${lines.join('\n')}\n\n${details.join('\n')}\n`);
await writeFidelity();
process.exit(rows.some((r) => r.loss.length > 0) ? 1 : 0);
