/** The bundled samples, copied, with a resumed session's copy of two answers of another: a session the lists hide. */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../cli/samples/claude-home');

/**
 * The samples copied to `home`, plus a resumed session's copy of one answer (its own id, the two calls' records of
 * another session copied): a session with messages and no title or call of its own, which both lists hide
 * (`hideEmpty`). Returns `home`.
 */
export function samplesWithACopy(home: string): string {
  cpSync(SAMPLES, home, { recursive: true });
  const project = join(home, 'projects', '-home-user-proj-shell');
  const file = readdirSync(project).find((name) => name.endsWith('.jsonl')) as string;
  const id = 'bbbbbbbb-0000-4000-8000-000000000000';
  const answers = readFileSync(join(project, file), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"assistant"'))
    .slice(0, 2)
    .map((line) => JSON.stringify({ ...JSON.parse(line), sessionId: id }));
  writeFileSync(join(project, `${id}.jsonl`), `${answers.join('\n')}\n`);
  return home;
}
