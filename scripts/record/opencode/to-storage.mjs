// Write the sessions of an opencode.db as OpenCode's older JSON tree (before 1.2), for a fixture of that layout:
// storage/session/<project id>/<session id>.json, storage/message/<session id>/<message id>.json and
// storage/part/<message id>/<part id>.json. The shapes are those OpenCode's migration to SQLite reads back (the
// session's info object; a message's and a part's `data` with their ids); derived, not written by an old client.
//
//   node scripts/record/opencode/to-storage.mjs <opencode.db> <data folder to write storage/ into>
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const Database = createRequire(import.meta.url)('better-sqlite3');
const [dbPath, out] = process.argv.slice(2);
const db = new Database(dbPath, { readonly: true, fileMustExist: true });
const write = (path, value) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
};
const storage = join(out, 'storage');
for (const s of db.prepare('SELECT * FROM session').all()) {
  const info = {
    id: s.id,
    slug: s.slug,
    version: s.version,
    projectID: s.project_id,
    directory: s.directory,
    ...(s.parent_id ? { parentID: s.parent_id } : {}),
    title: s.title,
    time: { created: s.time_created, updated: s.time_updated },
  };
  write(join(storage, 'session', s.project_id, `${s.id}.json`), info);
  for (const m of db.prepare('SELECT id, data FROM message WHERE session_id = ?').all(s.id)) {
    write(join(storage, 'message', s.id, `${m.id}.json`), { id: m.id, sessionID: s.id, ...JSON.parse(m.data) });
  }
  for (const p of db.prepare('SELECT id, message_id, data FROM part WHERE session_id = ?').all(s.id)) {
    write(join(storage, 'part', p.message_id, `${p.id}.json`), {
      id: p.id,
      sessionID: s.id,
      messageID: p.message_id,
      ...JSON.parse(p.data),
    });
  }
}
db.close();
