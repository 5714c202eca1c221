// Record Gemini CLI against the scripted model with its OpenTelemetry export on (issue 34): every scenario of
// scenarios.mjs runs the real client headless (`-p`, `--yolo`, `--skip-trust`, `-o stream-json`; `--resume <id>`
// for a resumed run) with HOME a fresh folder, GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL pointing at the scripted
// model (Gemini API), and ~/.gemini/settings.json turning telemetry on (`otlpProtocol: "http"`, traces on) towards a
// capture server. Output: <out>/gemini-home/tmp/**/chats/** (the session files byte for byte, plus projects.json),
// otlp.jsonl (every export request's exact bytes), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/gemini/record.mjs --client <dir of npm install @google/gemini-cli> --out <dir> \
//     [--no-telemetry] [scenario…]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { geminiTelemetrySettings } from '../../../packages/core/dist/index.js';
import { finish, installedVersion, parseOptions, recordScenarios } from '../driver.mjs';
import { startOtlpCapture } from '../otlp-capture.mjs';
import { telemetryManifest } from '../telemetry-manifest.mjs';
import { scenarios } from './scenarios.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function settings(otlp) {
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    // the settings `agentdash otel setup --agent gemini` prints
    ...(otlp === undefined ? {} : geminiTelemetrySettings(otlp)),
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
  // recordScenarios empties `out` first: the capture writes beside it and is moved in afterwards.
  const part = join(tmpdir(), `gemini-otlp-${process.pid}.jsonl`);
  const capture = telemetry ? await startOtlpCapture({ file: part }) : undefined;
  let configured = false;
  const { home, work, manifest, served } = await recordScenarios({
    name: 'gemini',
    pkg: '@google/gemini-cli',
    version,
    model,
    out,
    only,
    scenarios,
    invoke: ({ run, sessionId, home, api }) => {
      if (!configured) {
        mkdirSync(join(home, '.gemini'), { recursive: true });
        writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify(settings(capture?.url), null, 1));
        configured = true;
      }
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
  if (capture !== undefined) {
    await capture.close();
    cpSync(part, join(out, 'otlp.jsonl'));
    rmSync(part);
  }
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
  cpSync(join(here, 'scenarios.mjs'), join(out, 'scenarios.js.txt'));
  finish({ out, work, manifest, served });
  return manifest;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const noTelemetry = process.argv.indexOf('--no-telemetry');
  if (noTelemetry !== -1) process.argv.splice(noTelemetry, 1);
  const options = parseOptions({ client: '/tmp/gemini-client', out: 'gemini-recording', model: 'gemini-2.5-flash' });
  await record({ ...options, telemetry: noTelemetry === -1 });
}
