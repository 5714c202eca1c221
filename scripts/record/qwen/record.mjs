// Record Qwen Code against the scripted model (issue 37): every scenario of scenarios.mjs runs the real client
// headless (`--auth-type openai`, its base URL on 127.0.0.1, `--yolo`), HOME a fresh folder, so it writes
// ~/.qwen/projects/<encoded cwd>/chats/<session id>.jsonl there. Output: <out>/qwen-home (its .qwen: the chats, paths
// scrubbed to /home/user and the project folders renamed to match), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/qwen/record.mjs --client <dir with node_modules/.bin/qwen> --out <dir> [scenario…]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  countBy,
  encodeCwd,
  expectedFailures,
  finish,
  installedVersion,
  keepScenarios,
  parseOptions,
  recordScenarios,
  SCRUBBED_HOME,
  scrubberOf,
} from '../driver.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { client, out, model, only } = parseOptions({
  client: '/tmp/qwen-client',
  out: 'qwen-recording',
  model: 'qwen3-coder-plus',
});
const bin = join(client, 'node_modules/.bin/qwen');
const mcpConfig = JSON.stringify({
  mcpServers: { rec: { command: process.execPath, args: [join(here, '../mcp-server.mjs')] } },
});

const { home, work, manifest, served } = await recordScenarios({
  name: 'qwen',
  pkg: '@qwen-code/qwen-code',
  version: installedVersion(client, '@qwen-code/qwen-code'),
  model,
  out,
  only,
  scenarios,
  invoke: ({ scenario, run, sessionId, home, api }) => ({
    command: bin,
    argv: [
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
    ],
    env: { PATH: process.env.PATH, HOME: home, TERM: 'dumb', NO_COLOR: '1', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' },
    redact: { [mcpConfig]: '<mcp config>' },
  }),
});

const scrub = scrubberOf(home);
manifest.files = [];
const toolCallsByName = {};
for (const { scenario, sessionId } of manifest.scenarios) {
  const project = encodeCwd(join(home, 'proj', scenario));
  const chats = join(home, '.qwen/projects', project, 'chats', `${sessionId}.jsonl`);
  if (!existsSync(chats)) continue;
  const rel = `qwen-home/projects/${encodeCwd(join(SCRUBBED_HOME, 'proj', scenario))}/chats/${sessionId}.jsonl`;
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
  const expected = expectedFailures(served, scenario);
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
keepScenarios(out, here);
finish({ out, work, manifest, served });
