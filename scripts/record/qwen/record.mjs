// Record Qwen Code against the scripted model (issue 37): every scenario of scenarios.mjs runs the real client
// headless (`--auth-type openai`, its base URL on 127.0.0.1, `--yolo`), HOME a fresh folder, so it writes
// ~/.qwen/projects/<encoded cwd>/chats/<session id>.jsonl there. Output: <out>/qwen-home (its .qwen: the chats, paths
// scrubbed to /home/user and the project folders renamed to match), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/qwen/record.mjs --client <dir with node_modules/.bin/qwen> --out <dir> [scenario…]
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

const countBy = (values) => {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

/** Qwen Code's project folder name for a cwd: every character but letters and digits becomes `-`. */
const encodeCwd = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const client = resolve(option('--client') ?? '/tmp/qwen-client');
const out = resolve(option('--out') ?? 'qwen-recording');
const model = option('--model') ?? 'qwen3-coder-plus';
const only = new Set(args);
const bin = join(client, 'node_modules/.bin/qwen');
const version = JSON.parse(
  readFileSync(join(client, 'node_modules/@qwen-code/qwen-code/package.json'), 'utf8'),
).version;

const work = join(tmpdir(), `qwen-rec-${process.pid}`);
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
  mcpServers: { rec: { command: process.execPath, args: [join(here, '../mcp-server.mjs')] } },
});

const manifest = {
  client: '@qwen-code/qwen-code',
  version,
  model,
  recordedAt: new Date().toISOString(),
  scenarios: [],
};
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
      '--auth-type',
      'openai',
      '--openai-base-url',
      api.url,
      '--openai-api-key',
      'sk-scripted',
      '-m',
      model,
      '--yolo',
      ...(scenario.mcp ? ['--mcp-config', mcpConfig] : []),
      run.prompt,
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
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      },
    });
    writeFileSync(join(out, 'runs', `${tag}.txt`), `${result.stdout ?? ''}\n--- stderr\n${result.stderr ?? ''}`);
    runs.push({
      tag,
      args: argv.map((a) =>
        a === run.prompt ? '<prompt>' : a === api.url ? '<scripted model>' : a === mcpConfig ? '<mcp config>' : a,
      ),
      code: result.status,
      signal: result.signal,
      ms: Date.now() - started,
    });
    process.stdout.write(`${tag}: exit ${result.status} in ${Date.now() - started} ms\n`);
  }
  manifest.scenarios.push({ scenario: scenario.name, sessionId, runs });
}
await api.close();

const served = readFileSync(truthFile, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const scrubbedHome = '/home/user';
const scrub = (text) => text.replaceAll(home, scrubbedHome).replaceAll(encodeCwd(home), encodeCwd(scrubbedHome));
manifest.files = [];
const toolCallsByName = {};
for (const { scenario, sessionId } of manifest.scenarios) {
  const project = encodeCwd(join(home, 'proj', scenario));
  const chats = join(home, '.qwen/projects', project, 'chats', `${sessionId}.jsonl`);
  if (!existsSync(chats)) continue;
  const rel = `qwen-home/projects/${encodeCwd(join(scrubbedHome, 'proj', scenario))}/chats/${sessionId}.jsonl`;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  const text = scrub(readFileSync(chats, 'utf8'));
  writeFileSync(join(out, rel), text);
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const byName = {};
  const failed = [];
  const exitCodes = {};
  for (const line of lines) {
    if (line.type !== 'tool_result') continue;
    for (const part of line.message?.parts ?? []) {
      const response = part.functionResponse;
      if (response === undefined) continue;
      byName[response.name] = (byName[response.name] ?? 0) + 1;
      toolCallsByName[response.name] = (toolCallsByName[response.name] ?? 0) + 1;
      if (line.toolCallResult?.status === 'error') failed.push({ callId: response.id, name: response.name });
      const exit = line.toolCallResult?.resultDisplay?.exitCode;
      if (typeof exit === 'number') exitCodes[response.id] = exit;
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
    lineTypes: countBy(lines.map((l) => (l.type === 'system' ? `system:${l.subtype}` : l.type))),
    toolCallsByName: byName,
    failedByClient: failed,
    shellExitCodes: exitCodes,
    expectedFailures: expected,
  });
}
manifest.toolCallsByName = toolCallsByName;
manifest.truth = {
  responses: served.filter((s) => s.status === 200).length,
  httpErrors: served.filter((s) => s.status !== 200).length,
};
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
cpSync(join(here, 'scenarios.mjs'), join(out, 'scenarios.js.txt'));
rmSync(work, { recursive: true, force: true });
