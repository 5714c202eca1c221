#!/usr/bin/env node
/**
 * Extract small golden fixtures from the real-client corpus: per client version and tool (name as written),
 * a few successful calls (one per distinct result shape) and a few failed ones (one per distinct message),
 * each as the tool_use record and its tool_result record, with long strings trimmed.
 *
 * Usage: node packages/core/scripts/make-golden-fixtures.mjs [corpusDir]
 * (default corpus: ../shared/corpus relative to the repository root). Writes
 * packages/core/test/fixtures/golden/<version>/<tool>.jsonl; the test golden-results.test.ts types them and
 * compares with the committed <tool>.expected.json (refresh those with `vitest -u`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpusDir = resolve(process.argv[2] ?? join(repoRoot, '../shared/corpus'));
const outDir = join(repoRoot, 'packages/core/test/fixtures/golden');
const versions = ['1.0.128', '2.0.50', '2.0.76', '2.1.330'];

const MAX_SUCCESS_PER_TOOL = 4;
const MAX_ERRORS_PER_TOOL = 3;
const MAX_STRING = 400;
const MAX_BASE64 = 96;

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/** Trim long strings: base64 to a short valid prefix, other text to a head with a marker. */
function trim(value, key) {
  if (typeof value === 'string') {
    if ((key === 'data' || key === 'base64') && value.length > MAX_BASE64 && /^[A-Za-z0-9+/=]+$/.test(value)) {
      return value.slice(0, MAX_BASE64);
    }
    if (value.length > MAX_STRING) return `${value.slice(0, MAX_STRING)}…[${value.length - MAX_STRING} chars trimmed]`;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => trim(v, key));
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = trim(v, k);
    return out;
  }
  return value;
}

function shapeOf(block, record) {
  const content =
    typeof block.content === 'string' ? 'string' : JSON.stringify((block.content ?? []).map((b) => b.type));
  const tur = record.toolUseResult;
  const turShape =
    tur === undefined
      ? 'absent'
      : Array.isArray(tur)
        ? 'array'
        : typeof tur === 'object' && tur !== null
          ? `${tur.type ?? ''}{${Object.keys(tur).sort().join(',')}}`
          : typeof tur;
  return `${content} ${turShape}`;
}

function errorKey(block) {
  const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  return text
    .replace(/<\/?tool_use_error>/g, '')
    .replace(/\/[\w./-]+/g, 'PATH')
    .replace(/\d+/g, 'N')
    .slice(0, 40);
}

rmSync(outDir, { recursive: true, force: true });
let total = 0;
for (const version of versions) {
  const projects = join(corpusDir, version, 'claude-home', 'projects');
  const uses = new Map(); // id -> {record, block}
  const results = []; // {record, block}
  for (const file of walk(projects)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const content = record?.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (block?.type === 'tool_use' && !uses.has(block.id)) uses.set(block.id, { record, block });
        if (block?.type === 'tool_result') results.push({ record, block });
      }
    }
  }
  const picked = new Map(); // tool -> {shapes:Set, errors:Set, lines:[]}
  const seenIds = new Set();
  for (const { record, block } of results) {
    if (seenIds.has(block.tool_use_id)) continue;
    seenIds.add(block.tool_use_id);
    const use = uses.get(block.tool_use_id);
    if (!use) continue;
    const tool = use.block.name;
    let entry = picked.get(tool);
    if (!entry) {
      entry = { shapes: new Set(), errors: new Set(), lines: [] };
      picked.set(tool, entry);
    }
    const isError = block.is_error === true;
    const key = isError ? errorKey(block) : shapeOf(block, record);
    const set = isError ? entry.errors : entry.shapes;
    if (set.has(key) || set.size >= (isError ? MAX_ERRORS_PER_TOOL : MAX_SUCCESS_PER_TOOL)) continue;
    set.add(key);
    const callRecord = { ...use.record, message: { ...use.record.message, content: [use.block] } };
    const resultRecord = { ...record, message: { ...record.message, content: [block] } };
    entry.lines.push(JSON.stringify(trim(callRecord)), JSON.stringify(trim(resultRecord)));
  }
  const dir = join(outDir, version);
  mkdirSync(dir, { recursive: true });
  for (const [tool, entry] of [...picked].sort(([a], [b]) => a.localeCompare(b))) {
    writeFileSync(join(dir, `${tool}.jsonl`), `${entry.lines.join('\n')}\n`);
    total += entry.lines.length / 2;
  }
  console.log(`${version}: ${picked.size} tools`);
}
console.log(`${total} calls written to ${outDir}`);
