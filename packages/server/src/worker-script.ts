/** Locating and starting the server's worker threads (session loading, file watching). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A built worker script beside this module, else the package's dist one (when running from sources). */
export function workerScript(name: string): URL | undefined {
  const candidates = [new URL(`./${name}`, import.meta.url), new URL(`../dist/${name}`, import.meta.url)];
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
