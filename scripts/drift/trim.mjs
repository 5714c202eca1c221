// How a recording becomes a bundled fixture: the recording's home, truth.jsonl, manifest.json and scenarios.js.txt
// copied (not the client's own output under runs/), each JSONL line passed through the agent's trim, in order, none
// dropped.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { trimCopilotLine } from '../record/copilot/trim.mjs';

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

/** Copy a recording to a fixture folder, `trimLine` applied to each line of its session files. */
export function copyRecording(from, to, trimLine = (line) => line) {
  for (const path of walk(from)) {
    const rel = relative(from, path);
    if (rel.startsWith('runs/')) continue;
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

export const trimClaudeRecording = (from, to) => copyRecording(from, to, trimClaudeLine);
export const trimCopilotRecording = (from, to) => copyRecording(from, to, trimCopilotLine);
