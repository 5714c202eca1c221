import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Vitest global setup: say once, plainly, whether the corpus suites and the wild-transcript suite run. */
export default function corpusNotice(): void {
  const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared');
  const corpus = resolve(shared, 'corpus');
  const wild = resolve(shared, 'wild/claude-home');
  const agents = resolve(shared, 'corpus-agents');
  const wildAgents = resolve(shared, 'wild-agents');
  const otel = resolve(shared, 'corpus-otel');
  const lines = [
    existsSync(corpus)
      ? `corpus suites: running over ${corpus}`
      : `corpus suites: SKIPPED — the real-client corpus is not at ${corpus} (bundled samples and fixtures still run)`,
    existsSync(wild)
      ? `wild suite: running over ${wild}`
      : `wild suite: SKIPPED — the wild transcripts are not at ${wild} (their bundled trimmed copies still run)`,
    existsSync(agents)
      ? `agent corpus suites (Codex, Gemini): running over ${agents}`
      : `agent corpus suites (Codex, Gemini): SKIPPED — not at ${agents} (the bundled agent fixtures still run)`,
    existsSync(wildAgents)
      ? `wild agent suites: running over ${wildAgents}`
      : `wild agent suites: SKIPPED — not at ${wildAgents} (the bundled agent fixtures still run)`,
    existsSync(otel)
      ? `telemetry (OTLP) suites: running over ${otel}`
      : `telemetry (OTLP) suites: SKIPPED — not at ${otel} (the bundled trimmed recordings still run)`,
  ];
  process.stderr.write(`\n${lines.join('\n')}\n\n`);
}
