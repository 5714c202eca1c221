// How a recording becomes a bundled fixture: the recording's home, truth.jsonl, manifest.json and scenarios.js.txt
// copied (not the client's own output under runs/, nor the OpenTelemetry capture otlp.jsonl: telemetry fixtures are
// cut from a recording by scripts/make-agent-otel-fixtures.mjs), each JSONL line passed through the agent's trim, in
// order, none dropped.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { trimCopilotLine } from '../record/copilot/trim.mjs';
import { SCRUBBED_HOME } from '../record/driver.mjs';

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

/** Copy a recording to a fixture folder, `trimLine` applied to each line of its session files. */
export function copyRecording(from, to, trimLine = (line) => line) {
  for (const path of walk(from)) {
    const rel = relative(from, path);
    if (rel.startsWith('runs/') || rel === 'otlp.jsonl') continue;
    const target = join(to, rel);
    mkdirSync(dirname(target), { recursive: true });
    if (path.endsWith('.jsonl') && !rel.startsWith('truth')) {
      writeFileSync(target, readFileSync(path, 'utf8').split('\n').map(trimLine).join('\n'));
    } else cpSync(path, target);
  }
}

/** Strings past `limit` characters cut to their start, marked with how much was cut. */
function elide(value, limit) {
  if (typeof value === 'string') {
    return value.length > limit ? `${value.slice(0, 120)}[elided ${value.length - 120} chars]` : value;
  }
  if (Array.isArray(value)) return value.map((v) => elide(v, limit));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, elide(v, limit)]));
  }
  return value;
}

/**
 * Claude Code 2.1.x writes the system prompt, skill and agent listings and each request's shape into the transcript
 * (attachment and api-request-* records, about 250 KB a session): their long strings are elided, as the corpus
 * does. Conversation records (user, assistant, system) are kept whole.
 */
const claudeBulky = new Set(['attachment', 'api-request-shape', 'api-request-blob', 'api-request']);
export function trimClaudeLine(line) {
  if (line.trim() === '') return line;
  const record = JSON.parse(line);
  return claudeBulky.has(record.type) ? JSON.stringify(elide(record, 400)) : line;
}

/**
 * Codex rollouts are recorded byte for byte (their paths are the recorder's temp HOME, `<tmp>/codex-rec-<pid>/home`,
 * which the OTLP joins need); a fixture holds them with that HOME as /home/user, as the other recorders write
 * theirs, and with the instructions Codex writes into every session cut: strings past 1,500 characters in
 * `session_meta`, `turn_context`, `world_state`, settings events and developer or injected user messages. Calls,
 * outputs and token events are kept whole.
 */
const escaped = tmpdir().replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
const codexTempHome = new RegExp(`${escaped}/codex-rec-\\d+/home`, 'g');
const codexBulky = new Set(['session_meta', 'turn_context', 'world_state', 'thread_settings_applied']);
export function trimCodexLine(line) {
  const scrubbed = line.replace(codexTempHome, SCRUBBED_HOME);
  if (scrubbed.trim() === '') return scrubbed;
  let record;
  try {
    record = JSON.parse(scrubbed);
  } catch {
    return scrubbed;
  }
  const payload = record?.payload ?? {};
  const message = record?.type === 'response_item' && payload.type === 'message' && payload.role !== 'assistant';
  const bulky = codexBulky.has(record?.type) || (record?.type === 'event_msg' && codexBulky.has(payload.type));
  return bulky || message ? JSON.stringify(elide(record, 1500)) : scrubbed;
}

export function trimCodexRecording(from, to) {
  copyRecording(from, to, trimCodexLine);
  const manifest = join(to, 'manifest.json');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(codexTempHome, SCRUBBED_HOME));
}
export const trimClaudeRecording = (from, to) => copyRecording(from, to, trimClaudeLine);
export const trimCopilotRecording = (from, to) => copyRecording(from, to, trimCopilotLine);
