/**
 * What the server's tests (and the dashboard's, which compare with the API) share: the app over a fresh index of
 * some transcript folders, answering requests in-process as the server does.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import type { LiveMessage } from '../src/api-types.js';
import { createApp } from '../src/app.js';

/** The bundled Claude Code sample home. */
export const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../cli/samples/claude-home');

export interface TestApp {
  readonly app: ReturnType<typeof createApp>;
  readonly index: AgentIndex;
  /** The temporary folder holding the index (and the stand-in viewer), removed by `close`. */
  readonly tmp: string;
  /** GET `path` as JSON; throws unless the answer is 200. */
  json<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * The app over a fresh index of `paths`. `exportViewer` writes a stand-in HTML export viewer (the real one is a web
 * build), so `/export.html` answers.
 */
export async function appOver(
  paths: readonly string[],
  options: { readonly port?: number; readonly exportViewer?: boolean } = {},
): Promise<TestApp> {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-app-'));
  const port = options.port ?? 4317;
  let assetsDir: string | undefined;
  if (options.exportViewer) {
    assetsDir = join(tmp, 'assets');
    await mkdir(join(assetsDir, 'export'), { recursive: true });
    await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test</title>');
    await writeFile(join(assetsDir, 'export', 'export.js'), 'document.title = "viewer";');
    await writeFile(join(assetsDir, 'export', 'export.css'), 'body{color:red}');
  }
  const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh(paths);
  const app = createApp({ index, paths, host: '127.0.0.1', port, assetsDir: assetsDir ?? join(tmp, 'no-assets') });
  const host = { host: `127.0.0.1:${port}` };
  return {
    app,
    index,
    tmp,
    async json<T>(path: string): Promise<T> {
      const res = await app.request(path, { headers: host });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async close() {
      index.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** Resolves once `seen` holds a message `match` accepts, or fails after `ms` naming `what` and what was seen. */
export function untilSeen(
  what: string,
  seen: readonly LiveMessage[],
  match: (m: LiveMessage) => boolean,
  ms = 5_000,
): Promise<void> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const look = () => {
      if (seen.some(match)) return done();
      if (Date.now() - started > ms) return fail(new Error(`${what} not seen; saw ${JSON.stringify(seen)}`));
      setTimeout(look, 10);
    };
    look();
  });
}

/** A copy of the sample home in a temporary folder, with an index of it there (refreshed when `refreshed`). */
export async function samplesCopy(refreshed: boolean): Promise<{
  readonly tmp: string;
  readonly home: string;
  readonly index: AgentIndex;
  close(): Promise<void>;
}> {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-samples-'));
  const home = join(tmp, 'home');
  await cp(SAMPLES, home, { recursive: true });
  const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  if (refreshed) await index.refresh([home]);
  return {
    tmp,
    home,
    index,
    async close() {
      index.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
