/** A temporary folder for a test, holding a copy of the bundled sample Claude home. */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled sample Claude home (the CLI's `samples/claude-home`). */
export const SAMPLES_HOME = resolve(dirname(fileURLToPath(import.meta.url)), '../../cli/samples/claude-home');

/** A new temporary folder (`dir`, named from `prefix`) with a copy of the sample home in it (`home`). */
export function copySamplesHome(prefix: string): { readonly dir: string; readonly home: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, 'claude-home');
  cpSync(SAMPLES_HOME, home, { recursive: true });
  return { dir, home };
}
