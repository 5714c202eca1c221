#!/usr/bin/env node
// Build the bundled sample sessions (packages/cli/samples/claude-home) from the real-client corpus in ../shared/corpus.
// Whole sessions are copied as the client wrote them; only bookkeeping records the dashboard never renders
// (api-request-blob / api-request-shape and prompt snapshots) have their long strings shortened, to keep the repo small.
// The samples are a newcomer's first screen, so two traces of the corpus's recorder go (issue 36): the marker that
// names each scenario (" [[rec:api-500]]") is taken out of every string, in every file, so a Task's prompt and its
// subagent's first prompt stay equal; and the recorder's model ids, which have no published price, become the
// published models of the same tier, so every cost is a figure.
// Usage: node scripts/make-samples.mjs [corpusDir]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = resolve(process.argv[2] ?? join(root, '../shared/corpus'));
const out = join(root, 'packages/cli/samples/claude-home');
const picks = [
  ['2.1.330', ['subagents', 'files', 'shell', 'web', 'mcp', 'interaction', 'tasks', 'planning', 'extras', 'api']],
  ['2.0.76', ['subagents', 'search', 'interaction']],
  ['1.0.128', ['subagents', 'shell', 'mcp', 'continuation']],
];
const SHORTEN = new Set(['api-request-blob', 'api-request-shape', 'api-request']);
const MARKER = / ?\[\[rec:[a-z0-9-]+\]\]/g;
const MODELS = { 'claude-opus-5-5': 'claude-opus-4-6', 'claude-haiku-5-5': 'claude-haiku-4-5-20251001' };

/** Strings without the recorder's markers, its model ids (as a whole value) priced ones. */
function tidy(value) {
  if (typeof value === 'string') return Object.hasOwn(MODELS, value) ? MODELS[value] : value.replace(MARKER, '');
  if (Array.isArray(value)) return value.map(tidy);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidy(v)]));
  return value;
}

/** A JSON file tidied, rewritten only when that changes it. */
function tidyJsonFile(path) {
  const text = readFileSync(path, 'utf8');
  const before = JSON.parse(text);
  const after = tidy(before);
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    writeFileSync(path, `${JSON.stringify(after)}${text.endsWith('\n') ? '\n' : ''}`);
  }
}
const LIMIT = 400;

function shorten(value) {
  if (typeof value === 'string')
    return value.length > LIMIT ? `${value.slice(0, LIMIT)}[sample: ${value.length - LIMIT} chars cut]` : value;
  if (Array.isArray(value)) return value.map(shorten);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  return value;
}

function trimFile(path) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const kept = lines.map((line) => {
    if (line.trim() === '') return line;
    const record = JSON.parse(line);
    const isSnapshot = record.type === 'attachment' && record.attachment?.type === 'prompt_snapshot';
    if (SHORTEN.has(record.type) || isSnapshot) return JSON.stringify(tidy(shorten(record)));
    // A line without a marker or a model to change is kept byte for byte.
    const tidied = tidy(record);
    return JSON.stringify(tidied) === JSON.stringify(record) ? line : JSON.stringify(tidied);
  });
  writeFileSync(path, kept.join('\n'));
}

function walk(dir, visit) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, visit);
    else visit(path);
  }
}

if (!existsSync(corpus)) {
  console.error(`corpus not found: ${corpus}`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
for (const [version, scenarios] of picks) {
  for (const scenario of scenarios) {
    const from = join(corpus, version, 'claude-home/projects', `-home-user-proj-${scenario}`);
    const to = join(out, 'projects', `-home-user-proj-${scenario}`);
    mkdirSync(to, { recursive: true });
    cpSync(from, to, { recursive: true });
  }
}
let bytes = 0;
walk(out, (path) => {
  if (path.endsWith('.jsonl')) trimFile(path);
  else if (path.endsWith('.json')) tidyJsonFile(path);
  else if (/\[\[rec:/.test(readFileSync(path, 'utf8')))
    writeFileSync(path, readFileSync(path, 'utf8').replace(MARKER, ''));
  else if (path.includes('/tool-results/') && statSync(path).size > 16384) {
    writeFileSync(
      path,
      `${readFileSync(path, 'utf8').slice(0, 16384)}\n[sample: the rest of this persisted output was cut]\n`,
    );
  }
  bytes += statSync(path).size;
});
console.log(`samples: ${relative(root, out)} (${(bytes / 1024).toFixed(0)} KiB)`);
