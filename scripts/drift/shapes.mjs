// Record types and fields, as `npm run drift` compares them: every JSONL line, JSON session file or SQLite row of a
// home reduced to its type and its field names (`type`, `type field`, `type data.field` one level into the
// envelope objects). What a new client version writes that no fixture or corpus file holds is its drift.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Files a recording or corpus folder holds beside its sessions: not the client's sessions (Gemini CLI's
 * `projects.json` maps project folders to their names; in a recording it sits at the home's top, where its folder's
 * name would be read as a record type).
 */
const notSessions = new Set([
  'projects.json',
  'truth.jsonl',
  'manifest.json',
  'mock-requests.jsonl',
  'check.json',
  'tools-offered.json',
  'truth-summary.json',
]);
const envelopes = ['data', 'payload', 'attachment', 'message', 'state'];

const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The type of a record: its `type` (or `role`), with a subtype or an attachment's type where it has one. */
function typeOf(record, fallback) {
  const base = record.type ?? record.role ?? fallback;
  const sub = record.subtype ?? (isObject(record.attachment) ? record.attachment.type : undefined);
  return typeof sub === 'string' ? `${base}:${sub}` : String(base);
}

function addShapes(out, record, fallback) {
  if (!isObject(record)) return;
  const type = typeOf(record, fallback);
  out.add(type);
  for (const [key, value] of Object.entries(record)) {
    out.add(`${type} ${key}`);
    if (envelopes.includes(key) && isObject(value))
      for (const inner of Object.keys(value)) out.add(`${type} ${key}.${inner}`);
  }
}

function addDatabase(out, path) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      db
        .prepare("select name from sqlite_master where type = 'table'")
        .all()
        .map((r) => r.name),
    );
    for (const table of ['session', 'message', 'part']) {
      if (!tables.has(table)) continue;
      for (const row of db.prepare(`select * from ${table}`).iterate()) {
        for (const column of Object.keys(row)) out.add(`${table} ${column}`);
        if (typeof row.data !== 'string') continue;
        let data;
        try {
          data = JSON.parse(row.data);
        } catch {
          continue;
        }
        addShapes(out, { ...data, type: `${table}:${data.type ?? data.role ?? '?'}` }, table);
      }
    }
  } finally {
    db.close();
  }
}

/** Every record type and field found under the given folders (missing folders are skipped). */
export function shapesOf(roots) {
  const out = new Set();
  for (const root of roots.filter((r) => existsSync(r))) {
    for (const path of statSync(root).isDirectory() ? walk(root) : [root]) {
      if (notSessions.has(basename(path))) continue;
      if (path.endsWith('.db')) addDatabase(out, path);
      else if (path.endsWith('.jsonl')) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          if (line.trim() === '') continue;
          try {
            addShapes(out, JSON.parse(line), 'line');
          } catch {}
        }
      } else if (path.endsWith('.json')) {
        let value;
        try {
          value = JSON.parse(readFileSync(path, 'utf8'));
        } catch {
          continue;
        }
        if (Array.isArray(value?.messages)) for (const m of value.messages) addShapes(out, m, 'message');
        else addShapes(out, value, basename(join(path, '..')));
      }
    }
  }
  return out;
}

/** What `recording` holds that `baseline` does not: new record types first, then new fields. */
export function newShapes(recording, baseline) {
  const fresh = [...recording].filter((s) => !baseline.has(s)).sort();
  return { types: fresh.filter((s) => !s.includes(' ')), fields: fresh.filter((s) => s.includes(' ')) };
}
