// What every recorder shares (issue 37): its options, a fresh HOME under a work folder, the scripted model, the
// `{dir}` placeholders of the scenarios filled with each project's folder, and the loop that runs every scenario's
// runs through the real client. A driver supplies the client's command line and environment, and afterwards reads
// the session files the client wrote (see copilot/record.mjs, qwen/record.mjs, opencode/record.mjs).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptedModel } from './scripted-model.mjs';

/** Run the client to its end (killed after 5 minutes), stdin closed, output collected. */
export function runClient(command, argv, options) {
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
/** A project folder's name for a cwd as Claude Code and Qwen Code make it: every character but letters and digits `-`. */
export const encodeCwd = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');

/** Where recordings put the temp HOME instead (and its encoded form, as project folder names hold it). */
export const SCRUBBED_HOME = '/home/user';

/** Replaces the temp HOME, plain and encoded, by SCRUBBED_HOME in a transcript's text. */
export const scrubberOf = (home) => (text) =>
  text.replaceAll(home, SCRUBBED_HOME).replaceAll(encodeCwd(home), encodeCwd(SCRUBBED_HOME));

export function countBy(values) {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** A scenario value with every `{dir}` replaced by the project's folder. */
export function fill(value, dir) {
  if (typeof value === 'string') return value.replaceAll('{dir}', dir);
  if (Array.isArray(value)) return value.map((v) => fill(v, dir));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, dir)]));
  }
  return value;
}

/**
 * The recorder's command line: `--client <dir of npm install>`, `--out <dir>`, `--model <id>`, then scenario names
 * (none: all of them).
 */
export function parseOptions({ client, out, model }) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args.splice(at, 2)[1];
  };
  return {
    client: resolve(option('--client') ?? client),
    out: resolve(option('--out') ?? out),
    model: option('--model') ?? model,
    only: new Set(args),
  };
}

/** The version of an npm package installed under a client folder. */
export function installedVersion(client, pkg) {
  return JSON.parse(readFileSync(join(client, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

/** The lines of the truth file, parsed. */
export function readTruth(truthFile) {
  return readFileSync(truthFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The ids of the calls a scenario's script meant to fail. */
export function expectedFailures(served, scenario) {
  return served
    .filter((s) => s.scenario === scenario)
    .flatMap((s) => s.items ?? [])
    .filter((i) => i.expectError)
    .map((i) => i.id);
}

/**
 * Run every scenario (or those in `only`) through the client. `setup({ home, api, out })` (optional) runs once,
 * after `out` is emptied and the scripted model listens, before the first run: a client's config files in the fresh
 * HOME, a capture server writing into `out`. `invoke({ scenario, run, index, sessionId, dir, home, api })` returns
 * `{ command, argv, env, redact? }` for one run (redact: argument values shown as a placeholder in the manifest);
 * `afterRun(result, context)` may return a session id the client chose (kept for the next runs). Returns `{ home,
 * work, manifest, served, truthFile }`; the caller collects the session files, then calls `finish`.
 */
export async function recordScenarios({ name, pkg, version, model, out, only, scenarios, setup, invoke, afterRun }) {
  const work = join(tmpdir(), `${name}-rec-${process.pid}`);
  const home = join(work, 'home');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'runs'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const truthFile = join(out, 'truth.jsonl');
  writeFileSync(truthFile, '');
  const api = await startScriptedModel({ truthFile, model });
  const manifest = { client: pkg, version, model, recordedAt: new Date().toISOString(), scenarios: [] };
  await setup?.({ home, api, out });
  for (const scenario of scenarios) {
    if (only.size > 0 && !only.has(scenario.name)) continue;
    const dir = join(home, 'proj', scenario.name);
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(scenario.files ?? {})) writeFileSync(join(dir, file), text);
    let sessionId = randomUUID();
    const runs = [];
    for (const [index, run] of scenario.runs.entries()) {
      const tag = `${scenario.name}.${index}`;
      api.load(
        scenario.name,
        tag,
        run.steps.map((step) => (typeof step === 'function' ? (body) => fill(step(body), dir) : fill(step, dir))),
      );
      const context = { scenario, run, index, sessionId, dir, home, api };
      const { command, argv, env, redact = {} } = invoke(context);
      const started = Date.now();
      // Asynchronous: the scripted model answers from this process's event loop.
      const result = await runClient(command, argv, { cwd: dir, env });
      writeFileSync(join(out, 'runs', `${tag}.txt`), `${result.stdout ?? ''}\n--- stderr\n${result.stderr ?? ''}`);
      sessionId = afterRun?.(result, context) ?? sessionId;
      const shown = { [run.prompt]: '<prompt>', [api.url]: '<scripted model>', ...redact };
      runs.push({
        tag,
        args: argv.map((a) => shown[a] ?? a),
        code: result.status,
        signal: result.signal,
        ms: Date.now() - started,
      });
      process.stdout.write(`${tag}: exit ${result.status} in ${Date.now() - started} ms\n`);
    }
    manifest.scenarios.push({ scenario: scenario.name, sessionId, runs });
  }
  await api.close();
  return { home, work, manifest, served: readTruth(truthFile), truthFile };
}

/** Keep the script that was run beside the recording: the client's vocabulary, then the shared scenarios. */
export function keepScenarios(out, clientDir) {
  const shared = readFileSync(new URL('./scenarios.mjs', import.meta.url), 'utf8');
  const own = readFileSync(join(clientDir, 'scenarios.mjs'), 'utf8');
  writeFileSync(join(out, 'scenarios.js.txt'), `${own}\n// ---- ../scenarios.mjs\n${shared}`);
}

/** Write the manifest (with the truth's totals) and remove the work folder. */
export function finish({ out, work, manifest, served }) {
  manifest.truth = {
    responses: served.filter((s) => s.status === 200).length,
    httpErrors: served.filter((s) => s.status !== 200).length,
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  rmSync(work, { recursive: true, force: true });
}
