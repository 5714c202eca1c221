// Record GitHub Copilot CLI against the scripted model (issue 37): every scenario of scenarios.mjs runs the real
// client in prompt mode with its bring-your-own-model variables pointed at 127.0.0.1, HOME a fresh folder, so it
// writes ~/.copilot/session-state/<id>/events.jsonl there. Output: <out>/copilot-home (the session folders' events,
// paths scrubbed to /home/user), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/copilot/record.mjs --client <dir with node_modules/.bin/copilot> --out <dir> [scenario…]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedModel } from '../scripted-model.mjs';
import { scenarios } from './scenarios.mjs';

/** Run the client to its end (killed after 5 minutes), stdin closed, output collected. */
function runClient(command, argv, options) {
  return new Promise((done) => {
    const child = spawn(command, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, stdout, stderr });
    });
  });
}

/** How many times each value occurs. */
function countBy(values) {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const client = resolve(option('--client') ?? '/tmp/copilot-client');
const out = resolve(option('--out') ?? 'copilot-recording');
const model = option('--model') ?? 'gpt-4.1';
const only = new Set(args);
const bin = join(client, 'node_modules/.bin/copilot');
const version = JSON.parse(readFileSync(join(client, 'node_modules/@github/copilot/package.json'), 'utf8')).version;

const work = join(tmpdir(), `copilot-rec-${process.pid}`);
const home = join(work, 'home');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'runs'), { recursive: true });
mkdirSync(home, { recursive: true });
const truthFile = join(out, 'truth.jsonl');
writeFileSync(truthFile, '');
const api = await startScriptedModel({ truthFile, model });

const fill = (value, dir) =>
  typeof value === 'string'
    ? value.replaceAll('{dir}', dir)
    : Array.isArray(value)
      ? value.map((v) => fill(v, dir))
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, dir)]))
        : value;

const mcpConfig = JSON.stringify({
  mcpServers: {
    rec: { type: 'local', command: process.execPath, args: [join(here, '../mcp-server.mjs')], tools: ['*'] },
  },
});

const manifest = { client: '@github/copilot', version, model, recordedAt: new Date().toISOString(), scenarios: [] };
for (const scenario of scenarios) {
  if (only.size > 0 && !only.has(scenario.name)) continue;
  const dir = join(home, 'proj', scenario.name);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(scenario.files ?? {})) writeFileSync(join(dir, name), text);
  const sessionId = randomUUID();
  const runs = [];
  for (const [index, run] of scenario.runs.entries()) {
    const tag = `${scenario.name}.${index}`;
    api.load(
      scenario.name,
      tag,
      run.steps.map((step) => (typeof step === 'function' ? (body) => fill(step(body), dir) : fill(step, dir))),
    );
    const argv = [
      ...(run.resume ? ['--resume', sessionId] : ['--session-id', sessionId]),
      '-p',
      run.prompt,
      '--allow-all-tools',
      '--no-auto-update',
      ...(scenario.mcp ? ['--additional-mcp-config', mcpConfig] : []),
    ];
    const started = Date.now();
    // Asynchronous: the scripted model answers from this process's event loop.
    const result = await runClient(bin, argv, {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TERM: 'dumb',
        NO_COLOR: '1',
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_PROVIDER_BASE_URL: api.url,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_MODEL: model,
      },
    });
    writeFileSync(join(out, 'runs', `${tag}.txt`), `${result.stdout ?? ''}\n--- stderr\n${result.stderr ?? ''}`);
    runs.push({
      tag,
      args: argv.map((a) => (a === run.prompt ? '<prompt>' : a === mcpConfig ? '<mcp config>' : a)),
      code: result.status,
      signal: result.signal,
      ms: Date.now() - started,
    });
    process.stdout.write(`${tag}: exit ${result.status} in ${Date.now() - started} ms\n`);
  }
  manifest.scenarios.push({ scenario: scenario.name, sessionId, runs });
}
await api.close();

// The session folders' event logs, paths scrubbed; the rest of each folder (checkpoints, snapshots) is left out.
const served = readFileSync(truthFile, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const scrub = (text) => text.replaceAll(home, '/home/user');
manifest.files = [];
const toolCallsByName = {};
for (const { scenario, sessionId } of manifest.scenarios) {
  const events = join(home, '.copilot/session-state', sessionId, 'events.jsonl');
  if (!existsSync(events)) continue;
  const rel = `copilot-home/.copilot/session-state/${sessionId}/events.jsonl`;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  const text = scrub(readFileSync(events, 'utf8'));
  writeFileSync(join(out, rel), text);
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const byName = {};
  const failed = [];
  const starts = new Map();
  for (const line of lines) {
    if (line.type === 'tool.execution_start') starts.set(line.data.toolCallId, line.data.toolName);
    if (line.type === 'tool.execution_complete') {
      const name = starts.get(line.data.toolCallId) ?? '?';
      byName[name] = (byName[name] ?? 0) + 1;
      toolCallsByName[name] = (toolCallsByName[name] ?? 0) + 1;
      if (line.data.success === false) failed.push({ callId: line.data.toolCallId, name });
    }
  }
  const expected = served
    .filter((s) => s.scenario === scenario)
    .flatMap((s) => s.items ?? [])
    .filter((i) => i.expectError)
    .map((i) => i.id);
  manifest.files.push({
    path: rel,
    scenario,
    sessionId,
    lines: lines.length,
    lineTypes: countBy(lines.map((l) => l.type)),
    toolCallsByName: byName,
    failedByClient: failed,
    expectedFailures: expected,
  });
}
manifest.toolCallsByName = toolCallsByName;
manifest.truth = {
  responses: served.filter((s) => s.status === 200).length,
  httpErrors: served.filter((s) => s.status !== 200).length,
};
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
cpSync(join(here, 'scenarios.mjs'), join(out, 'scenarios.mjs'));
rmSync(work, { recursive: true, force: true });
