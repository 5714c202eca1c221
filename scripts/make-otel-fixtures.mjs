// Trims ../shared/corpus-otel into packages/core/test/fixtures/otel: the probe and shell sessions of each recording,
// every export request that mentions one of them (its exact bytes), and their transcripts.
// Run: node scripts/make-otel-fixtures.mjs [corpus-otel dir]
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const corpus = process.argv[2] ?? join(root, '../shared/corpus-otel');
const out = join(root, 'packages/core/test/fixtures/otel');
const keep = { 'proj-probe': true, 'proj-shell': true, 'proj-w-probe': true, 'proj-w-shell': true };

rmSync(out, { recursive: true, force: true });
for (const recording of ['2.1.332-json', '2.1.332-protobuf']) {
  const projects = join(corpus, recording, 'claude-home/projects');
  const sessions = [];
  for (const folder of readdirSync(projects)) {
    if (!Object.keys(keep).some((name) => folder.endsWith(`-${name}`))) continue;
    for (const file of readdirSync(join(projects, folder))) {
      if (!file.endsWith('.jsonl')) continue;
      sessions.push(file.replace(/\.jsonl$/, ''));
      const target = join(out, recording, 'claude-home/projects', folder, file);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(projects, folder, file), target);
    }
  }
  const lines = readFileSync(join(corpus, recording, 'otlp.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const kept = lines.filter((line) => {
    const { body } = JSON.parse(line);
    const text = typeof body === 'string' ? Buffer.from(body, 'base64').toString('latin1') : JSON.stringify(body);
    return sessions.some((id) => text.includes(id));
  });
  writeFileSync(join(out, recording, 'otlp.jsonl'), `${kept.join('\n')}\n`);
  console.log(`${recording}: ${sessions.length} sessions, ${kept.length} of ${lines.length} requests`);
}
