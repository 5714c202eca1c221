// Trims a Codex CLI or Gemini CLI telemetry recording (scripts/record/codex|gemini/record.mjs) into
// packages/core/test/fixtures/otel/<name>: the transcripts of the chosen scenarios, every export request of the
// chosen signals that names one of their sessions (its exact bytes, in arrival order), their lines of truth.jsonl,
// and the recording's manifest.
// Run: node scripts/make-agent-otel-fixtures.mjs <recording dir> <fixture name> <signals,…> <scenario…>
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const [recording, name, signals, ...keep] = process.argv.slice(2);
const out = join(root, 'packages/core/test/fixtures/otel', name);
const manifest = JSON.parse(readFileSync(join(recording, 'manifest.json'), 'utf8'));
const sessions = manifest.scenarios.filter((s) => keep.includes(s.scenario)).map((s) => s.sessionId);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of manifest.files) {
  if (!sessions.some((id) => file.path.includes(id) || file.path.includes(`-${id.slice(0, 8)}.`))) continue;
  mkdirSync(dirname(join(out, file.path)), { recursive: true });
  cpSync(join(recording, file.path), join(out, file.path));
}
const paths = signals.split(',').map((s) => `/v1/${s}`);
const lines = readFileSync(join(recording, 'otlp.jsonl'), 'utf8').split('\n').filter(Boolean);
const kept = lines.filter((line) => {
  const request = JSON.parse(line);
  const text = Buffer.from(request.body, 'base64').toString('latin1');
  return paths.includes(request.path) && sessions.some((id) => text.includes(id));
});
writeFileSync(join(out, 'otlp.jsonl'), `${kept.join('\n')}\n`);
const truth = readFileSync(join(recording, 'truth.jsonl'), 'utf8').split('\n').filter(Boolean);
writeFileSync(join(out, 'truth.jsonl'), `${truth.filter((l) => keep.includes(JSON.parse(l).scenario)).join('\n')}\n`);
writeFileSync(
  join(out, 'manifest.json'),
  `${JSON.stringify({ ...manifest, fixture: { scenarios: keep, sessions, signals: paths } }, null, 1)}\n`,
);
console.log(`${name}: ${sessions.length} sessions, ${kept.length} of ${lines.length} requests`);
