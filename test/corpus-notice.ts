import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Vitest global setup: say once, plainly, whether the corpus suites run. */
export default function corpusNotice(): void {
  const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/corpus');
  const line = existsSync(corpus)
    ? `corpus suites: running over ${corpus}`
    : `corpus suites: SKIPPED — the real-client corpus is not at ${corpus} (bundled samples and fixtures still run)`;
  process.stderr.write(`\n${line}\n\n`);
}
