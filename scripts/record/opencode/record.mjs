// Record OpenCode against the scripted model (issue 37): every scenario of scenarios.mjs runs the real client
// headless (`opencode run --format json --auto`) with an OpenAI-compatible provider whose baseURL is the scripted
// model, HOME and the XDG folders in a fresh folder, so it writes $XDG_DATA_HOME/opencode/opencode.db there. Output:
// <out>/opencode-home (its data folder: opencode.db copied with VACUUM INTO, the WAL folded in, paths scrubbed to
// /home/user), truth.jsonl, manifest.json, runs/.
//
//   node scripts/record/opencode/record.mjs --client <dir with node_modules/.bin/opencode> --out <dir> [scenario…]
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

const Database = createRequire(import.meta.url)('better-sqlite3');
const here = dirname(fileURLToPath(import.meta.url));
const { client, out, model, only } = parseOptions({
  client: '/tmp/opencode-client',
  out: 'opencode-recording',
  model: 'gpt-4.1',
});
const bin = join(client, 'node_modules/.bin/opencode');

/** The global config: the scripted model as an OpenAI-compatible provider, and the MCP server when asked. */
function writeConfig(home, url, mcp) {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: url, apiKey: 'sk-scripted' },
        models: { [model]: { name: model } },
      },
    },
    model: `scripted/${model}`,
    ...(mcp
      ? { mcp: { rec: { type: 'local', command: [process.execPath, join(here, '../mcp-server.mjs')], enabled: true } } }
      : {}),
  };
  mkdirSync(join(home, '.config/opencode'), { recursive: true });
  writeFileSync(join(home, '.config/opencode/opencode.json'), `${JSON.stringify(config, null, 1)}\n`);
}

const { home, work, manifest, served } = await recordScenarios({
  name: 'opencode',
  pkg: 'opencode-ai',
  version: installedVersion(client, 'opencode-ai'),
  model,
  out,
  only,
  scenarios,
  invoke: ({ scenario, run, sessionId, home, api }) => {
    writeConfig(home, api.url, scenario.mcp === true);
    return {
      command: bin,
      argv: [
        'run',
        ...(run.resume ? ['--session', sessionId] : ['--title', scenario.name]),
        '--format',
        'json',
        '--auto',
        '-m',
        `scripted/${model}`,
        run.prompt,
      ],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_DATA_HOME: join(home, '.local/share'),
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_CACHE_HOME: join(home, '.cache'),
        XDG_STATE_HOME: join(home, '.local/state'),
        TERM: 'dumb',
        NO_COLOR: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
      },
    };
  },
  // The client picks the session id: the first event of its JSON output names it.
  afterRun: (result) => /"sessionID":"(ses_[A-Za-z0-9]+)"/.exec(result.stdout ?? '')?.[1],
});

// The database, WAL folded in, then paths scrubbed in the copy (never in the client's own file).
const dataDir = join(home, '.local/share/opencode');
const copy = join(out, 'opencode-home/opencode.db');
mkdirSync(dirname(copy), { recursive: true });
const source = new Database(join(dataDir, 'opencode.db'), { readonly: true, fileMustExist: true });
source.prepare('VACUUM INTO ?').run(copy);
source.close();
const db = new Database(copy);
const scrubbed = '/home/user';
for (const [table, columns] of Object.entries({
  session: ['directory', 'path', 'summary_diffs', 'metadata'],
  message: ['data'],
  part: ['data'],
  project: ['worktree', 'sandboxes'],
  event: ['data'],
  session_message: ['data'],
  session_input: ['prompt'],
})) {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (exists === undefined) continue;
  for (const column of columns) {
    // Absolute paths, and the relative ones tool titles show (`tmp/…/home/proj/…`).
    for (const [from, to] of [
      [home, scrubbed],
      [home.slice(1), scrubbed.slice(1)],
    ]) {
      db.prepare(`UPDATE ${table} SET ${column} = replace(${column}, ?, ?) WHERE ${column} IS NOT NULL`).run(from, to);
    }
  }
}
// The `event` table is OpenCode's sync log of the same rows (not read by AgentDash): emptied to keep the copy small.
if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'event'").get() !== undefined) {
  db.exec('DELETE FROM event');
}
db.exec('VACUUM');

manifest.files = [];
const toolCallsByName = {};
const sessions = db.prepare('SELECT id, parent_id, title FROM session ORDER BY time_created').all();
const byScenario = new Map(manifest.scenarios.map((s) => [s.sessionId, s.scenario]));
for (const session of sessions) {
  const scenario = byScenario.get(session.id) ?? byScenario.get(session.parent_id) ?? '?';
  const parts = db
    .prepare('SELECT data FROM part WHERE session_id = ? ORDER BY id')
    .all(session.id)
    .map((r) => JSON.parse(r.data));
  const messages = db
    .prepare('SELECT data FROM message WHERE session_id = ? ORDER BY id')
    .all(session.id)
    .map((r) => JSON.parse(r.data));
  const byName = {};
  const failed = [];
  const exitCodes = {};
  for (const part of parts) {
    if (part.type !== 'tool') continue;
    byName[part.tool] = (byName[part.tool] ?? 0) + 1;
    toolCallsByName[part.tool] = (toolCallsByName[part.tool] ?? 0) + 1;
    if (part.state?.status === 'error') failed.push({ callId: part.callID, name: part.tool });
    const exit = part.state?.metadata?.exit;
    if (typeof exit === 'number') exitCodes[part.callID] = exit;
  }
  manifest.files.push({
    path: 'opencode-home/opencode.db',
    scenario,
    sessionId: session.id,
    parentSessionId: session.parent_id ?? undefined,
    messages: countBy(messages.map((m) => m.role)),
    partTypes: countBy(parts.map((p) => p.type)),
    toolCallsByName: byName,
    failedByClient: failed,
    shellExitCodes: exitCodes,
    expectedFailures: session.parent_id ? [] : expectedFailures(served, scenario),
  });
}
db.close();
manifest.toolCallsByName = toolCallsByName;
keepScenarios(out, here);
finish({ out, work, manifest, served });
