/**
 * What tells this build of the program apart from another: a stored answer (`Context.answer`) is the output of the
 * code that computed it, so a later build (an upgrade, a rebuild) must not be given it back as its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digest } from './prices-file.js';

let cached: string | undefined;

/**
 * The package's version and the name, size and modification time of every file beside this module (the bundle's
 * chunks, or dist/'s top level), digested. An install from the registry stamps every file with one fixed time: its
 * version and sizes tell builds apart there.
 */
export function buildId(): string {
  cached ??= buildIdAt(dirname(fileURLToPath(import.meta.url)));
  return cached;
}

/** The workspaces whose built code the CLI runs beside its own in a checkout. */
const WORKSPACES = ['api', 'core', 'index', 'server', 'team'];

/**
 * `buildId` of the program whose modules are in `here`. In a checkout the CLI may run from dist/ (the bundle not
 * built since, `bin/agentdash.js`), and then the other workspaces' code is their own dist/, each stamped by its
 * TypeScript build's `.tsbuildinfo`: those count too, so a rebuilt core is not answered from the old one's output.
 */
export function buildIdAt(here: string): string {
  const parts: string[] = [];
  try {
    const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { version?: unknown };
    parts.push(String(pkg.version));
  } catch {
    parts.push('?');
  }
  try {
    for (const name of readdirSync(here).sort()) {
      const info = statSync(join(here, name), { throwIfNoEntry: false });
      if (info?.isFile()) parts.push(`${name}:${info.size}:${info.mtimeMs}`);
    }
  } catch {
    // Unlistable: the version alone.
  }
  for (const name of WORKSPACES) {
    const info = statSync(join(here, '..', '..', name, 'dist', '.tsbuildinfo'), { throwIfNoEntry: false });
    if (info !== undefined) parts.push(`${name}/dist:${info.size}:${info.mtimeMs}`);
  }
  return digest(parts.join('\n'));
}
