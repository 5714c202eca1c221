// Record Gemini CLI against the scripted model with its OpenTelemetry export on (issue 34): every shared scenario
// (../scenarios.mjs in Gemini's vocabulary, scenarios.mjs) runs the real client headless (`-p`, `--yolo`,
// `--skip-trust`, `-o stream-json`; `--resume <id>` for a resumed run) with HOME a fresh folder, GEMINI_API_KEY and
// GOOGLE_GEMINI_BASE_URL pointing at the scripted model (Gemini API), and ~/.gemini/settings.json turning telemetry
// on (`otlpProtocol: "http"`, traces on) towards a capture server and, for the mcp scenario, declaring the `rec` MCP
// server. Output: <out>/gemini-home/tmp/**/chats/** (the session files byte for byte, plus projects.json), otlp.jsonl
// (every export request's exact bytes), truth.jsonl, manifest.json, scenarios.js.txt, runs/.
//
//   node scripts/record/gemini/record.mjs --client <dir of npm install @google/gemini-cli> --out <dir> \
//     [--no-telemetry] [scenario…]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { geminiTelemetrySettings } from '../../../packages/core/dist/index.js';
import { finish, installedVersion, keepScenarios, parseOptions, recordScenarios } from '../driver.mjs';
import { startOtlpCapture } from '../otlp-capture.mjs';
import { telemetryManifest } from '../telemetry-manifest.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function settings(otlp, mcp = false) {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    // the settings `agentdash otel setup --agent gemini` prints
    ...(otlp === undefined ? {} : geminiTelemetrySettings(otlp)),
    // the `rec` MCP server (../mcp-server.mjs), for the mcp scenario only
    ...(mcp ? { mcpServers: { rec: { command: process.execPath, args: [join(here, '../mcp-server.mjs')] } } } : {}),
  };
}

function chatFiles(home) {
  const dir = join(home, '.gemini/tmp');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\/chats(\/|$)/.test(join(e.parentPath ?? e.path, e.name)))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/**
 * Record `scenarios` (names in `only`, all when empty) with the Gemini CLI installed under `client`.
 *
 * @param {{ client: string, out: string, model?: string, only?: Set<string>, telemetry?: boolean }} options
 */
export async function record({ client, out, model = 'gemini-2.5-flash', only = new Set(), telemetry = true }) {
  const entry = join(client, 'node_modules/@google/gemini-cli/bundle/gemini.js');
  const version = installedVersion(client, '@google/gemini-cli');
  let capture;
  const writeSettings = (home, mcp) => {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify(settings(capture?.url, mcp), null, 1));
  };
  const { home, work, manifest, served } = await recordScenarios({
    name: 'gemini',
    pkg: '@google/gemini-cli',
    version,
    model,
    out,
    only,
    scenarios,
    // After `out` is emptied: the capture writes into it directly.
    setup: async ({ home, out }) => {
      capture = telemetry ? await startOtlpCapture({ file: join(out, 'otlp.jsonl') }) : undefined;
      writeSettings(home, false);
    },
    invoke: ({ scenario, run, sessionId, home, api }) => {
      writeSettings(home, scenario.mcp === true);
      return {
        command: process.execPath,
        argv: [
          entry,
          ...(run.resume ? ['--resume', sessionId] : []),
          '-p',
          run.prompt,
          '--yolo',
          '--skip-trust',
          '-o',
          'stream-json',
        ],
        env: {
          PATH: process.env.PATH,
          HOME: home,
          TERM: 'dumb',
          NO_COLOR: '1',
          GEMINI_API_KEY: 'scripted',
          GOOGLE_GEMINI_BASE_URL: api.origin,
        },
        redact: { [entry]: '<gemini.js>' },
      };
    },
    afterRun: (result) => /"session_id":"([^"]+)"/.exec(result.stdout ?? '')?.[1],
  });
  await capture?.close();
  manifest.files = [];
  for (const file of chatFiles(home)) {
    const rel = join('gemini-home/tmp', relative(join(home, '.gemini/tmp'), file));
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    cpSync(file, join(out, rel));
    manifest.files.push({ path: rel, bytes: readFileSync(file).length });
  }
  if (existsSync(join(home, '.gemini/projects.json'))) {
    cpSync(join(home, '.gemini/projects.json'), join(out, 'gemini-home/projects.json'));
  }
  manifest.recordedHome = home;
  manifest.telemetry = telemetry ? { protocol: 'http (OTLP/JSON)', ...telemetryManifest(out, 'gemini') } : null;
  keepScenarios(out, here);
  finish({ out, work, manifest, served });
  return manifest;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const noTelemetry = process.argv.indexOf('--no-telemetry');
  if (noTelemetry !== -1) process.argv.splice(noTelemetry, 1);
  const options = parseOptions({ client: '/tmp/gemini-client', out: 'gemini-recording', model: 'gemini-2.5-flash' });
  await record({ ...options, telemetry: noTelemetry === -1 });
}
