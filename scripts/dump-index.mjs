#!/usr/bin/env node
/**
 * Dump every table of one or two index files in a stable order, to check that a change to the write path stores
 * exactly what it stored before: rows sorted, blobs (the archive's chunks) as their SHA-256, the full-text index by
 * its terms and positions (fts5vocab) rather than its segments, whose layout follows the batches' timing.
 *
 *   node scripts/dump-index.mjs A.sqlite [B.sqlite]
 *
 * With one file, prints one line per table (rows, digest). With two, prints the tables that differ and the first
 * differing rows of each, and exits 1 when any differs. `warm_state` (cached answers keyed by generation) is left out.
 * Numbers of the `strings` table (`*_ref` columns) are given as their texts, since the order in which a run meets them
 * decides the numbers; so is the full-text index's `origin` (which batch inserted a document).
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const SKIPPED = new Set(['warm_state', 'docs_fts_data', 'docs_fts_idx', 'docs_fts_config']);

function cell(v) {
  if (Buffer.isBuffer(v)) return `blob:${createHash('sha256').update(v).digest('hex')}`;
  return v;
}

/** Every table's rows as sorted JSON lines, by table name. */
function dump(path) {
  const db = new Database(path, { readonly: true });
  const out = new Map();
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .filter((t) => !SKIPPED.has(t.name) && !t.sql.startsWith('CREATE VIRTUAL'));
  const strings = new Map(db.prepare('SELECT id, text FROM strings').raw().all());
  for (const { name } of tables) {
    const statement = db.prepare(`SELECT * FROM "${name}"`).raw();
    const columns = statement.columns().map((c) => c.name);
    const lines = [];
    for (const row of statement.iterate()) {
      const values = [];
      for (let i = 0; i < row.length; i++) {
        const column = columns[i];
        if (name.endsWith('_docsize') && column === 'origin') continue;
        const ref = column.endsWith('_ref') && typeof row[i] === 'number' && name !== 'strings';
        values.push(ref ? `s:${strings.get(row[i])}` : cell(row[i]));
      }
      lines.push(JSON.stringify(name === 'strings' ? values.slice(1) : values));
    }
    out.set(name, lines.sort());
  }
  const fts = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5(%'")
    .all();
  for (const { name } of fts) {
    db.exec(`CREATE VIRTUAL TABLE temp."v_${name}" USING fts5vocab(main, "${name}", 'instance')`);
    // In the order of terms, documents and positions: the same for the same contents, however stored.
    const hash = createHash('sha256');
    let count = 0;
    for (const row of db.prepare(`SELECT term, doc, col, offset FROM temp."v_${name}"`).raw().iterate()) {
      hash.update(`${row.join('\t')}\n`);
      count += 1;
    }
    out.set(`${name} (terms)`, [`${count} ${hash.digest('hex')}`]);
  }
  db.close();
  return out;
}

const digest = (lines) => createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);

const [a, b] = process.argv.slice(2);
if (a === undefined) {
  console.error('usage: node scripts/dump-index.mjs A.sqlite [B.sqlite]');
  process.exit(2);
}
const left = dump(a);
if (b === undefined) {
  for (const [name, lines] of left) console.log(`${name}\t${lines.length}\t${digest(lines)}`);
  process.exit(0);
}
const right = dump(b);
let differ = 0;
for (const name of new Set([...left.keys(), ...right.keys()])) {
  const l = left.get(name) ?? [];
  const r = right.get(name) ?? [];
  if (digest(l) === digest(r)) {
    console.log(`same\t${name}\t${l.length}`);
    continue;
  }
  differ += 1;
  console.log(`DIFF\t${name}\t${l.length} vs ${r.length}`);
  const rs = new Set(r);
  const ls = new Set(l);
  for (const line of l.filter((x) => !rs.has(x)).slice(0, 3)) console.log(`  - ${line.slice(0, 400)}`);
  for (const line of r.filter((x) => !ls.has(x)).slice(0, 3)) console.log(`  + ${line.slice(0, 400)}`);
}
process.exit(differ > 0 ? 1 : 0);
