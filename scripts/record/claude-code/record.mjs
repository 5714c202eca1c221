// Record Claude Code against the scripted model (issue 37): every shared scenario runs the real client in print mode
// (`ANTHROPIC_BASE_URL` on 127.0.0.1, an API key that is not one, `--permission-mode bypassPermissions`), its config
// folder under a fresh HOME, so it writes projects/<encoded cwd>/<session>.jsonl there (subagents under
// <session>/subagents/). Output: <out>/claude-home (its projects, paths scrubbed to /home/user), truth.jsonl,
// manifest.json, runs/.
//
//   node scripts/record/claude-code/record.mjs --client <dir with node_modules/.bin/claude> --out <dir> [scenario…]
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  countBy,
  expectedFailures,
  finish,
  installedVersion,
  keepScenarios,
  parseOptions,
  recordScenarios,
  scrubberOf,
} from '../driver.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { client, out, model, only } = parseOptions({
  client: '/tmp/claude-code-client',
  out: 'claude-code-recording',
  model: 'claude-sonnet-4-5-20250929',
});
const bin = join(client, 'node_modules/.bin/claude');
const mcpConfig = JSON.stringify({
  mcpServers: { rec: { type: 'stdio', command: process.execPath, args: [join(here, '../mcp-server.mjs')] } },
});

const { home, work, manifest, served } = await recordScenarios({
  name: 'claude-code',
  pkg: '@anthropic-ai/claude-code',
  version: installedVersion(client, '@anthropic-ai/claude-code'),
  model,
  out,
  only,
  scenarios,
  invoke: ({ scenario, run, sessionId, home, api }) => ({
    command: bin,
    argv: [
      '-p',
      run.prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--model',
      model,
      ...(run.resume ? ['--resume', sessionId] : ['--session-id', sessionId]),
      ...(scenario.mcp ? ['--mcp-config', mcpConfig, '--strict-mcp-config'] : []),
    ],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      TERM: 'dumb',
      NO_COLOR: '1',
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      // The scripted model answers on /v1/messages; the client appends /v1 itself.
      ANTHROPIC_BASE_URL: api.url.replace(/\/v1$/, ''),
      ANTHROPIC_API_KEY: 'sk-ant-scripted',
      ANTHROPIC_SMALL_FAST_MODEL: 'claude-haiku-4-5-20251001',
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
    redact: { [mcpConfig]: '<mcp config>' },
  }),
});

const scrub = scrubberOf(home);
const projects = join(home, '.claude/projects');
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
manifest.files = [];
const toolCallsByName = {};
for (const path of existsSync(projects) ? walk(projects).filter((p) => p.endsWith('.jsonl')) : []) {
  const rel = `claude-home/projects/${scrub(relative(projects, path))}`;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  const text = scrub(readFileSync(path, 'utf8'));
  writeFileSync(join(out, rel), text);
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const uses = new Map();
  const failed = [];
  const failedIds = new Set();
  // Chain records only: api-request-blob lines hold the messages as sent again.
  for (const line of lines.filter((l) => l.type === 'assistant' || l.type === 'user')) {
    const content = Array.isArray(line.message?.content) ? line.message.content : [];
    for (const block of content) {
      if (block.type === 'tool_use') uses.set(block.id, block.name);
      if (block.type === 'tool_result' && block.is_error === true && !failedIds.has(block.tool_use_id)) {
        failedIds.add(block.tool_use_id);
        failed.push({ callId: block.tool_use_id, name: uses.get(block.tool_use_id) ?? '?' });
      }
    }
  }
  const byName = countBy(uses.values());
  for (const [name, n] of Object.entries(byName)) toolCallsByName[name] = (toolCallsByName[name] ?? 0) + n;
  const scenario = /-proj-([^/]+)\//.exec(rel)?.[1] ?? '?';
  const subagent = rel.includes('/subagents/');
  manifest.files.push({
    path: rel,
    scenario,
    role: subagent ? 'subagent' : 'main',
    lines: lines.length,
    lineTypes: countBy(
      lines.map((l) => (l.type === 'attachment' ? `attachment:${l.attachment?.type}` : (l.type ?? '?'))),
    ),
    toolCallsByName: byName,
    failedByClient: failed,
    expectedFailures: subagent ? [] : expectedFailures(served, scenario),
  });
}
manifest.toolCallsByName = toolCallsByName;
keepScenarios(out, here);
finish({ out, work, manifest, served });
