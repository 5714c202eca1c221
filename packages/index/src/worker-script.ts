/** Locating and starting worker threads of built code (the index's parse workers, the server's threads). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { BUILD_STAMP, BUILD_STAMP_FIELD, WORKER_LOADED } from './worker-loaded.js';

export { announceLoaded, WORKER_LOADED } from './worker-loaded.js';

/**
 * The built worker script `name` beside the module at `from` (its `import.meta.url`), else beside that module's built
 * twin in its package's dist (when it runs from sources: `src/write/x.ts` looks in `dist/write/`).
 */
export function builtWorkerScript(name: string, from: string): URL | undefined {
  const candidates = [new URL(`./${name}`, from)];
  const src = from.lastIndexOf('/src/');
  if (src >= 0) candidates.push(new URL(`./${name}`, `${from.slice(0, src)}/dist/${from.slice(src + 5)}`));
  return candidates.find((url) => existsSync(fileURLToPath(url)));
}

/**
 * A worker thread running the built `script`, told this build's stamp (a script of another build refuses to run:
 * `announceLoaded`), with this process's Node options (`builtExecArgv`) less those a worker
 * cannot take: V8 and process-wide options such as `--max-old-space-size` or `--stack-size` (a user running
 * `node --max-old-space-size=8192 agentdash index`). Those apply to the whole process already; Node refuses to start a
 * worker naming them (ERR_WORKER_INVALID_EXEC_ARGV), so they are left out, and when Node's message cannot be read,
 * all options are.
 */
export function startBuiltWorker(
  script: URL,
  options: Omit<WorkerOptions, 'execArgv'> = {},
  execArgv: readonly string[] = builtExecArgv(),
): Worker {
  const worker = startWorker(script, { ...options, workerData: stamped(options.workerData) }, execArgv);
  loading.set(worker, loadedOrExited(worker));
  return worker;
}

/** `data` with this build's stamp, which the worker checks against its own (`announceLoaded`): an object's copy. */
function stamped(data: unknown): unknown {
  if (data === undefined) return { [BUILD_STAMP_FIELD]: BUILD_STAMP };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { [BUILD_STAMP_FIELD]: BUILD_STAMP, ...data };
}

function startWorker(script: URL, options: Omit<WorkerOptions, 'execArgv'>, execArgv: readonly string[]): Worker {
  try {
    return new Worker(script, { ...options, execArgv: [...execArgv] });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const refused = refusedOptions((error as Error).message, execArgv);
    if (refused.size > 0) {
      try {
        return new Worker(script, { ...options, execArgv: execArgv.filter((arg) => !refused.has(arg)) });
      } catch (again) {
        if ((again as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw again;
      }
    }
    return new Worker(script, { ...options, execArgv: [] });
  }
}

/**
 * The options of `execArgv` Node names in "Initiated Worker with invalid execArgv flags: --a, --b=1" (an option's
 * own text may hold ", ": each is looked for whole in the list).
 */
function refusedOptions(message: string, execArgv: readonly string[]): Set<string> {
  const at = message.indexOf(': ');
  if (at < 0) return new Set();
  const list = message.slice(at + 2);
  return new Set(
    execArgv.filter(
      (arg) => list === arg || list.startsWith(`${arg}, `) || list.endsWith(`, ${arg}`) || list.includes(`, ${arg}, `),
    ),
  );
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

/*
 * A worker thread is stopped only once its modules are evaluated. Terminating a thread while V8 still evaluates a
 * module graph that holds a top-level await (`@agentdash/core` loads its parsers so, and every worker imports it)
 * aborts the whole process on Node.js 26: the body of a module importing the awaiting one is cut short with no
 * exception to reject its evaluation with, and V8 fails `Check failed: !is_null()` in
 * `SourceTextModule::AsyncModuleExecutionFulfilled`. Node.js 20 ends such a thread cleanly. So each worker script
 * calls `announceLoaded` at its top level, and `stopWorker` waits for that, or for the thread's exit, before
 * terminating it.
 */

/**
 * How long `stopWorker` waits for a thread to announce itself before terminating it anyway: loading takes a few
 * hundred milliseconds on a busy machine; a script that never announces is a bug its tests show by this wait.
 */
export const WORKER_LOAD_WAIT_MS = 10_000;

const loading = new WeakMap<Worker, Promise<void>>();

function loadedOrExited(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    const onMessage = (message: unknown) => {
      if (message === WORKER_LOADED) done();
    };
    const done = () => {
      worker.off('message', onMessage);
      worker.off('exit', done);
      resolve();
    };
    worker.on('message', onMessage);
    worker.on('exit', done);
  });
}

/**
 * Terminate a worker thread started by `startBuiltWorker`, once it has announced that its modules are evaluated (or
 * has exited, or `waitMs` passed).
 */
export async function stopWorker(worker: Worker, waitMs = WORKER_LOAD_WAIT_MS): Promise<void> {
  const loaded = loading.get(worker);
  if (loaded !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([loaded, waited]);
    clearTimeout(timer);
  }
  await worker.terminate();
}
