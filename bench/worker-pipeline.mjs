#!/usr/bin/env node
// What a parse worker does to a home's files, in this one thread, stage by stage: CPU per pass (the first pass
// warms up; compare the later ones, and two builds alternated in one sitting).
//
//   node bench/worker-pipeline.mjs HOME [parse|rows|facts|all] [PASSES] [REPO]
//
// parse: read and decode the records; rows: + their row operations (record-rows.ts); facts: + the calls' facts
// (call-fact.ts), and a subagent's records its parent's file copies taken as its thread when its file is not in the
// session (copy-rows.ts, in a build that has it); all: + `v8.serialize` of the operations, as the worker posts them.
// REPO (default: this checkout)
// is a checkout whose packages are built (`npm run build`), for measuring another build from the same script.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';

const [home, mode = 'all', passes = '3', repoArg] = process.argv.slice(2);
if (home === undefined) {
  console.error('usage: node bench/worker-pipeline.mjs HOME [parse|rows|facts|all] [PASSES] [REPO]');
  process.exit(2);
}
const repo = resolve(repoArg ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const core = await import(join(repo, 'packages/core/dist/index.js'));
const { opsOfEvent } = await import(join(repo, 'packages/index/dist/write/record-rows.js'));
const { FactTracker } = await import(join(repo, 'packages/index/dist/write/call-fact.js'));
const { agentOfRow } = await import(join(repo, 'packages/index/dist/agents.js'));
const { sessionKeyOf } = await import(join(repo, 'packages/index/dist/file-row.js'));
const { DocNumbers } = await import(join(repo, 'packages/index/dist/write/doc-parts.js'));
const copyRows = await import(join(repo, 'packages/index/dist/write/copy-rows.js')).catch(() => undefined);

const files = [...(await core.discoverAll([home])).files.values()];
// The agents with a file in each session, as a parse job is given them (`ParseRequest.filed`).
const filedBySession = new Map();
for (const file of files) {
  if (file.agentId === undefined) continue;
  const key = sessionKeyOf(file);
  filedBySession.set(key, [...(filedBySession.get(key) ?? []), file.agentId]);
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let pass = 0; pass < Number(passes); pass++) {
  const from = cpu();
  let events = 0;
  let serialized = 0;
  for (const file of files) {
    const facts = new FactTracker(agentOfRow(file.agent));
    const copies = copyRows?.copiesOfRead(core.adapterForFile(file), filedBySession.get(sessionKeyOf(file)) ?? []);
    const opsFile = { agentId: file.agentId ?? null, role: file.role, docs: new DocNumbers() };
    let ops = [];
    const post = () => {
      if (mode === 'all') serialized += serialize(ops).length;
      ops = [];
    };
    await core.adapterForFile(file).streamRecords(
      file,
      (event) => {
        events += 1;
        if (mode === 'parse') return;
        const start = ops.length;
        if (copyRows !== undefined && mode !== 'rows') copyRows.opsWithCopies(event, opsFile, ops, facts, copies);
        else opsOfEvent(event, opsFile, ops);
        if (copyRows === undefined && mode !== 'rows') facts.track(event, ops, start);
        if (ops.length >= 5000) post();
      },
      { startOffset: 0, startLine: 1 },
    );
    if (mode === 'facts' || mode === 'all') facts.finish(ops);
    post();
  }
  console.log(
    `${mode} pass ${pass}: ${(cpu() - from).toFixed(0)} ms CPU, ${events} events, ${serialized} bytes posted`,
  );
}
