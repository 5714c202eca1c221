// Record GitHub Copilot CLI against the scripted model (issue 37): every scenario of scenarios.mjs runs the real
// client in prompt mode with its bring-your-own-model variables pointed at 127.0.0.1, HOME a fresh folder, so it
// writes ~/.copilot/session-state/<id>/events.jsonl there. Output: <out>/copilot-home (the session folders' events,
// paths scrubbed to /home/user), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/copilot/record.mjs --client <dir with node_modules/.bin/copilot> --out <dir> [scenario…]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  countBy,
  expectedFailures,
  finish,
  installedVersion,
  keepScenarios,
  parseOptions,
  recordScenarios,
} from '../driver.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { client, out, model, only } = parseOptions({
  client: '/tmp/copilot-client',
  out: 'copilot-recording',
  model: 'gpt-4.1',
});
const bin = join(client, 'node_modules/.bin/copilot');
const mcpConfig = JSON.stringify({
  mcpServers: {
    rec: { type: 'local', command: process.execPath, args: [join(here, '../mcp-server.mjs')], tools: ['*'] },
  },
});

const { home, work, manifest, served } = await recordScenarios({
  name: 'copilot',
  pkg: '@github/copilot',
  version: installedVersion(client, '@github/copilot'),
  model,
  out,
  only,
  scenarios,
  invoke: ({ scenario, run, sessionId, home, api }) => ({
    command: bin,
    argv: [
      ...(run.resume ? ['--resume', sessionId] : ['--session-id', sessionId]),
      '-p',
      run.prompt,
      '--allow-all-tools',
      '--no-auto-update',
      ...(scenario.mcp ? ['--additional-mcp-config', mcpConfig] : []),
    ],
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
    redact: { [mcpConfig]: '<mcp config>' },
  }),
});

// The session folders' event logs, paths scrubbed; the rest of each folder (checkpoints, snapshots) is left out.
const scrub = (text) => text.replaceAll(home, '/home/user');
manifest.files = [];
const toolCallsByName = {};
for (const { scenario, sessionId } of manifest.scenarios) {
  const events = join(home, '.copilot/session-state', sessionId, 'events.jsonl');
  if (!existsSync(events)) continue;
  // copilot-home is the recording's ~/.copilot, as the bundled fixture holds it.
  const rel = `copilot-home/session-state/${sessionId}/events.jsonl`;
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
  const expected = expectedFailures(served, scenario);
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
keepScenarios(out, here);
finish({ out, work, manifest, served });
