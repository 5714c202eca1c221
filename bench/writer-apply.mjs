#!/usr/bin/env node
// The writer's `Writer.apply` alone: every row operation of a home's files (built first, as parse workers build them)
// stored into a fresh index in this one thread, in one transaction. CPU of the stores per round (the first warms up;
// compare two builds alternated in one sitting).
//
//   node bench/writer-apply.mjs HOME [ROUNDS] [REPO]
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import Database from 'better-sqlite3';

const [home, rounds = '5', repoArg] = process.argv.slice(2);
if (home === undefined) {
  console.error('usage: node bench/writer-apply.mjs HOME [ROUNDS] [REPO]');
  process.exit(2);
}
const repo = resolve(repoArg ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const core = await import(join(repo, 'packages/core/dist/index.js'));
const { opsOfEvent } = await import(join(repo, 'packages/index/dist/write/record-rows.js'));
const { FactTracker } = await import(join(repo, 'packages/index/dist/write/call-fact.js'));
const { Writer } = await import(join(repo, 'packages/index/dist/write/import.js'));
const { openIndex } = await import(join(repo, 'packages/index/dist/agent-index.js'));
const { agentOfRow } = await import(join(repo, 'packages/index/dist/agents.js'));

const chunks = [];
for (const file of (await core.discoverAll([home])).files.values()) {
  const facts = new FactTracker(agentOfRow(file.agent));
  const ops = [];
  await core.adapterForFile(file).streamRecords(
    file,
    (event) => {
      const start = ops.length;
      opsOfEvent(event, { agentId: file.agentId ?? null, role: file.role }, ops);
      facts.track(event, ops, start);
    },
    { startOffset: 0, startLine: 1 },
  );
  facts.finish(ops);
  chunks.push({ file, data: serialize(ops) });
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const path = join(tmpdir(), `agentdash-writer-apply-${process.pid}.sqlite`);
const remove = () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
};
for (let round = 0; round < Number(rounds); round++) {
  remove();
  openIndex({ dbPath: path }).close();
  const db = new Database(path);
  // As a first index runs (agent-index.ts, write-batch.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -32768');
  db.pragma('temp_store = MEMORY');
  const writer = new Writer(db);
  const addFile = db.prepare('INSERT INTO files (path, project_dir, role, session_id) VALUES (?, ?, ?, ?)');
  const files = chunks.map(({ file, data }) => ({
    row: {
      id: Number(addFile.run(file.path, file.projectDir ?? '', file.role, file.path).lastInsertRowid),
      agent_id: file.agentId ?? null,
      role: file.role,
    },
    ops: deserialize(data),
  }));
  const counts = { records: 0, issues: 0 };
  db.exec('BEGIN');
  const from = cpu();
  for (const { row, ops } of files) writer.apply(row, ops, new Set(), counts);
  const spent = cpu() - from;
  db.exec('COMMIT');
  db.close();
  console.log(`round ${round}: Writer.apply ${spent.toFixed(0)} ms CPU, ${counts.records} records`);
}
remove();
