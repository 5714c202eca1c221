/** Locating and starting worker threads of built code (the index's parse workers, the server's threads). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The built worker script `name` beside the module at `from` (its `import.meta.url`), else its package's dist one
 * (when that module runs from sources).
 */
export function builtWorkerScript(name: string, from: string): URL | undefined {
  const candidates = [new URL(`./${name}`, from), new URL(`../dist/${name}`, from)];
  return candidates.find((url) => existsSync(fileURLToPath(url)));
}

/**
 * The process's Node options minus custom export conditions: a worker script is built code and must load the
 * built packages, even when this process runs from sources (tests add `--conditions @agentdash/source`).
 */
export function builtExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--conditions' || arg === '-C') i++;
    else if (!arg.startsWith('--conditions=') && !arg.startsWith('-C=')) out.push(arg);
  }
  return out;
}
