// Record Codex CLI against the scripted model with its OpenTelemetry export on (issue 34): every shared scenario
// (../scenarios.mjs in Codex's vocabulary, scenarios.mjs) runs `codex exec` (`exec resume <id>` for a resumed run)
// with HOME a fresh folder whose ~/.codex/config.toml points the model provider at the scripted model (Responses
// API), the three OTLP/HTTP exporters (logs, traces, metrics) at a capture server, and, for the mcp scenario, the
// `rec` MCP server. Output: <out>/codex-home/sessions/** (the rollouts byte for byte), otlp.jsonl (every export
// request's exact bytes), truth.jsonl, manifest.json, scenarios.js.txt, runs/.
//
//   node scripts/record/codex/record.mjs --client <dir of npm install @openai/codex> --out <dir> \
//     [--protocol json|binary] [--no-telemetry] [scenario…]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codexTelemetryToml } from '../../../packages/core/dist/index.js';
import { finish, installedVersion, keepScenarios, parseOptions, recordScenarios } from '../driver.mjs';
import { startOtlpCapture } from '../otlp-capture.mjs';
import { telemetryManifest } from '../telemetry-manifest.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The `rec` MCP server (../mcp-server.mjs), as config.toml declares one. */
const mcpToml = [
  '[mcp_servers.rec]',
  `command = ${JSON.stringify(process.execPath)}`,
  `args = [${JSON.stringify(join(here, '../mcp-server.mjs'))}]`,
].join('\n');

/**
 * config.toml: the scripted provider, (with telemetry) the `[otel]` lines `agentdash otel setup` prints, and (for the
 * mcp scenario) the `rec` MCP server.
 */
function configToml({ model, api, otlp, protocol, mcp = false }) {
  return [
    `model = "${model}"`,
    'model_provider = "scripted"',
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = "${api}"`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    otlp === undefined ? '' : codexTelemetryToml(otlp, protocol),
    ...(mcp ? [mcpToml] : []),
  ].join('\n');
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * Record `scenarios` (names in `only`, all when empty) with the Codex CLI installed under `client`.
 *
 * @param {{ client: string, out: string, model?: string, only?: Set<string>, telemetry?: boolean,
 *   protocol?: 'json' | 'binary' }} options
 */
export async function record({
  client,
  out,
  model = 'gpt-5.5',
  only = new Set(),
  telemetry = true,
  protocol = 'json',
}) {
  const bin = join(client, 'node_modules/.bin/codex');
  const version = installedVersion(client, '@openai/codex');
  let capture;
  const writeConfig = (home, api, mcp) => {
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex/config.toml'), configToml({ model, api, otlp: capture?.url, protocol, mcp }));
  };
  const { home, work, manifest, served } = await recordScenarios({
    name: 'codex',
    pkg: '@openai/codex',
    version,
    model,
    out,
    only,
    scenarios,
    // After `out` is emptied: the capture writes into it directly.
    setup: async ({ home, api, out }) => {
      capture = telemetry ? await startOtlpCapture({ file: join(out, 'otlp.jsonl') }) : undefined;
      writeConfig(home, api.url, false);
    },
    invoke: ({ scenario, run, sessionId, home, api }) => {
      // The MCP server only for the scenario that uses it (the other runs are offered no MCP tools).
      writeConfig(home, api.url, scenario.mcp === true);
      const flags = ['--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];
      return {
        command: bin,
        argv: run.resume ? ['exec', ...flags, 'resume', sessionId, run.prompt] : ['exec', ...flags, run.prompt],
        env: { PATH: process.env.PATH, HOME: home, SCRIPTED_API_KEY: 'sk-scripted', NO_COLOR: '1' },
      };
    },
    afterRun: (result) => /"thread_id":"([^"]+)"/.exec(result.stdout ?? '')?.[1],
  });
  await capture?.close();
  const rollouts = filesUnder(join(home, '.codex/sessions'));
  manifest.files = [];
  for (const file of rollouts) {
    const rel = join('codex-home/sessions', relative(join(home, '.codex/sessions'), file));
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    cpSync(file, join(out, rel));
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const calls = lines.filter((l) => l.type === 'response_item' && /call$/.test(l.payload?.type ?? ''));
    const meta = lines.find((l) => l.type === 'session_meta')?.payload;
    manifest.files.push({ path: rel, sessionId: meta?.id, cwd: meta?.cwd, lines: lines.length, calls: calls.length });
  }
  manifest.recordedHome = home;
  manifest.telemetry = telemetry ? { protocol, ...telemetryManifest(out, 'codex') } : null;
  keepScenarios(out, here);
  finish({ out, work, manifest, served });
  return manifest;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv;
  const protocolAt = args.indexOf('--protocol');
  const protocol = protocolAt === -1 ? 'json' : args.splice(protocolAt, 2)[1];
  const noTelemetry = args.indexOf('--no-telemetry');
  if (noTelemetry !== -1) args.splice(noTelemetry, 1);
  const options = parseOptions({ client: '/tmp/codex-client', out: 'codex-recording', model: 'gpt-5.5' });
  await record({ ...options, telemetry: noTelemetry === -1, protocol });
}
