// Builds (and caches) a large Claude home for the benchmarks: copies of real sessions (the corpus, else the bundled
// samples) with fresh ids in every copy, so that counts over the copy stay meaningful (sessions, calls, responses
// are not merged across copies), and one large single session.
import { createHash } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
// Anthropic API ids: tool_use, message and request ids.
const API_ID = /\b(toolu_|msg_|req_|srvtoolu_)([A-Za-z0-9]{6,})/g;

/** Every `.jsonl` and `.meta.json` under a Claude home's projects folder, with its path relative to the home. */
function listFiles(home) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.jsonl') || entry.name.endsWith('.meta.json')) out.push(path);
    }
  };
  walk(join(home, 'projects'));
  return out.map((path) => ({
    path,
    rel: relative(home, path),
    size: statSync(path).size,
    mtimeMs: statSync(path).mtimeMs,
  }));
}

/** Agent ids of a home: from `agent-<id>.jsonl` names and `"agentId":"<id>"` fields. */
function agentIdsOf(files) {
  const ids = new Set();
  for (const f of files) {
    const m = /^agent-(.+)\.(jsonl|meta\.json)$/.exec(basename(f.path));
    if (m) ids.add(m[1]);
    if (!f.path.endsWith('.jsonl')) continue;
    for (const hit of readFileSync(f.path, 'utf8').matchAll(/"agentId":"([^"]+)"/g)) ids.add(hit[1]);
  }
  return [...ids].filter((id) => id.length >= 5).sort((a, b) => b.length - a.length);
}

/** A function that gives every id of one copy a fresh, consistent value (same length for UUIDs). */
function freshIds(copy, agentIds, keep = new Set()) {
  const tag = copy.toString(16).padStart(5, '0');
  const uuids = new Map();
  const uuid = (u) => {
    if (keep.has(u)) return u;
    let v = uuids.get(u);
    if (v === undefined) {
      const h = createHash('sha1').update(`${copy}:${u}`).digest('hex');
      v = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
      uuids.set(u, v);
    }
    return v;
  };
  const agentPattern =
    agentIds.length > 0
      ? new RegExp(`\\b(${agentIds.map((a) => a.replace(/[^A-Za-z0-9]/g, '\\$&')).join('|')})\\b`, 'g')
      : null;
  const apply = (text) => {
    let out = text.replace(UUID, uuid).replace(API_ID, (_m, prefix, rest) => `${prefix}${tag}${rest.slice(5)}`);
    if (agentPattern) out = out.replace(agentPattern, (id) => `${id}${tag}`);
    return out;
  };
  return apply;
}

/**
 * A Claude home of about `targetBytes`: copies of the source sessions, each in its own project folder, with fresh
 * ids, original mtimes shifted back a day per copy. Cached under `dir` (keyed by the size); returns its stats.
 */
export function buildHome(sources, dir, targetBytes) {
  const done = join(dir, 'done.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const files = sources.flatMap((home) => listFiles(home).map((f) => ({ ...f, home })));
  const perCopy = files.reduce((n, f) => n + f.size, 0);
  const agentIds = agentIdsOf(files);
  const copies = Math.max(1, Math.round(targetBytes / perCopy));
  let bytes = 0;
  let count = 0;
  for (let copy = 0; copy < copies; copy++) {
    const fresh = freshIds(copy, agentIds);
    for (const f of files) {
      const [projects, project, ...rest] = f.rel.split(/[\\/]/);
      const target = join(dir, 'home', projects, `${project}-c${copy}`, ...rest.map(fresh));
      mkdirSync(dirname(target), { recursive: true });
      const text = fresh(readFileSync(f.path, 'utf8'));
      writeFileSync(target, text);
      const when = (f.mtimeMs - copy * 86_400_000) / 1000;
      utimesSync(target, when, when);
      bytes += Buffer.byteLength(text);
      count += 1;
    }
  }
  const stats = { home: join(dir, 'home'), files: count, bytes, copies };
  writeFileSync(done, JSON.stringify(stats));
  return stats;
}

/**
 * One session of about `targetBytes`: a real session's lines repeated with fresh ids per repetition, the session id
 * kept, so that it is one long session with many distinct calls.
 */
export async function buildBigSession(sourceFile, dir, targetBytes) {
  const done = join(dir, 'done.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const text = readFileSync(sourceFile, 'utf8');
  const sessionId = /"sessionId":"([^"]+)"/.exec(text)?.[1] ?? '';
  const target = join(dir, 'home', 'projects', '-bench-big', `${sessionId}.jsonl`);
  mkdirSync(dirname(target), { recursive: true });
  const out = createWriteStream(target);
  let bytes = 0;
  let repeats = 0;
  while (bytes < targetBytes) {
    const chunk = freshIds(repeats, [], new Set([sessionId]))(text.endsWith('\n') ? text : `${text}\n`);
    bytes += Buffer.byteLength(chunk);
    repeats += 1;
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  const old = Date.now() / 1000 - 86_400;
  utimesSync(target, old, old);
  const stats = { home: join(dir, 'home'), file: target, sessionId, bytes, repeats };
  writeFileSync(done, JSON.stringify(stats));
  return stats;
}
