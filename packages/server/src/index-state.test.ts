import { appendFile, cp, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HealthResponse, LiveMessage, SessionsResponse } from './api-types.js';
import { type RunningServer, startServer } from './server.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

/** Releases held files one at a time (or all), and tells which file is waiting. */
class Gate {
  readonly held: string[] = [];
  private waiting: { file: string; go: () => void }[] = [];
  private arrived: (() => void) | undefined;
  private open = false;

  readonly hold = (file: string): Promise<void> => {
    if (this.open) return Promise.resolve();
    this.held.push(file);
    return new Promise<void>((go) => {
      this.waiting.push({ file, go });
      this.arrived?.();
    });
  };

  /** Wait until a file is held. */
  async next(): Promise<void> {
    while (this.waiting.length === 0) await new Promise<void>((r) => (this.arrived = r));
  }

  releaseOne(): void {
    this.waiting.shift()?.go();
  }

  releaseAll(): void {
    this.open = true;
    for (const w of this.waiting.splice(0)) w.go();
  }
}

/** Reads server-sent events from a real connection. */
async function sse(url: string, signal: AbortSignal) {
  const response = await fetch(`${url}api/events`, { signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const messages: LiveMessage[] = [];
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buffer += value;
      for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n');
        if (data) messages.push(JSON.parse(data) as LiveMessage);
      }
    }
  })();
  const until = async (predicate: (m: LiveMessage) => boolean): Promise<LiveMessage> => {
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { messages, until, pump };
}

describe('serve on an empty index', () => {
  let tmp: string;
  let home: string;
  let index: AgentIndex;
  let server: RunningServer | undefined;

  beforeEach(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'agentdash-bg-'));
    home = join(tmp, 'home');
    await cp(samples, home, { recursive: true });
    index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    index.close();
    await rm(tmp, { recursive: true, force: true });
  });

  const getJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${server!.url}${path}`);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  it('answers while the index is being built, and the list fills as files are read', async () => {
    const gate = new Gate();
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, beforeFile: gate.hold });
    const abort = new AbortController();
    const events = await sse(server.url, abort.signal);

    await gate.next();
    const first = await getJson<HealthResponse>('api/health');
    expect(first.index.state).toBe('indexing');
    expect(first.index.filesDone).toBe(0);
    expect(first.index.filesTotal).toBeGreaterThan(3);
    expect(first.index.bytesTotal).toBeGreaterThan(0);
    expect(first.index.finishedAt).toBeNull();
    expect((await getJson<SessionsResponse>('api/sessions')).total).toBe(0);

    // Let the files in one by one: the health counts and the list follow.
    let listed = 0;
    for (let n = 1; n <= 3; n++) {
      gate.releaseOne();
      await gate.next();
      const health = await getJson<HealthResponse>('api/health');
      expect(health.index.state).toBe('indexing');
      expect(health.index.filesDone).toBe(n);
      expect(health.index.bytesDone).toBeGreaterThan(0);
      expect(health.index.bytesDone).toBeLessThan(health.index.bytesTotal);
      const list = await getJson<SessionsResponse>('api/sessions');
      expect(list.total).toBeGreaterThanOrEqual(listed);
      listed = list.total;
    }
    expect(listed).toBeGreaterThan(0);
    const progress = await events.until((m) => m.type === 'index-progress' && m.index.state === 'indexing');
    expect(progress.type).toBe('index-progress');

    gate.releaseAll();
    const report = await server.indexed;
    const done = await getJson<HealthResponse>('api/health');
    expect(done.index).toMatchObject({ state: 'ready', error: null });
    expect(done.index.filesDone).toBe(done.index.filesTotal);
    expect(done.index.bytesDone).toBe(done.index.bytesTotal);
    expect(done.index.filesTotal).toBe(report?.files);
    const all = await getJson<SessionsResponse>('api/sessions');
    expect(all.total).toBe(report?.sessions);
    expect(all.total).toBeGreaterThan(listed);
    await events.until((m) => m.type === 'index-progress' && m.index.state === 'ready');
    const readyAt = events.messages.findIndex((m) => m.type === 'index-progress' && m.index.state === 'ready');
    expect(events.messages.slice(readyAt).some((m) => m.type === 'sessions-changed')).toBe(true);
    abort.abort();
    await events.pump;
  });

  it('reads the most recently active sessions first', async () => {
    const files = (await readdir(home, { recursive: true }))
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => join(home, f));
    const old = new Date('2020-01-01T00:00:00Z');
    for (const f of files) await utimes(f, old, old);
    const newest = join(home, 'projects', '-home-user-proj-shell', '5546c9dc-f77a-4128-bec8-c0c6a466b9a7.jsonl');
    const older = join(home, 'projects', '-home-user-proj-files', '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc.jsonl');
    await utimes(newest, new Date(), new Date());
    await utimes(older, new Date('2021-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
    const gate = new Gate();
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, beforeFile: gate.hold });
    await gate.next();
    gate.releaseOne();
    await gate.next();
    const list = await getJson<SessionsResponse>('api/sessions');
    expect(list.sessions.map((s) => s.id)).toEqual(['5546c9dc-f77a-4128-bec8-c0c6a466b9a7']);
    gate.releaseAll();
    await server.indexed;
    expect(gate.held.slice(0, 2)).toEqual([newest, older]);
  });

  it('a tab opened mid-build is told the progress at once', async () => {
    const gate = new Gate();
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, beforeFile: gate.hold });
    await gate.next();
    gate.releaseOne();
    await gate.next();
    const abort = new AbortController();
    const events = await sse(server.url, abort.signal);
    const message = await events.until((m) => m.type === 'index-progress');
    expect(message).toMatchObject({ type: 'index-progress', index: { state: 'indexing', filesDone: 1 } });
    gate.releaseAll();
    await server.indexed;
    abort.abort();
    await events.pump;
  });

  it('follows files as they grow once the build is over (the watcher runs in a worker thread)', async () => {
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0 });
    await server.indexed;
    const abort = new AbortController();
    const events = await sse(server.url, abort.signal);
    await events.until((m) => m.type === 'hello');
    const project = join(home, 'projects', '-home-user-proj-shell');
    const file = (await readdir(project)).find((f) => f.endsWith('.jsonl'))!;
    const lines = (await readFile(join(project, file), 'utf8')).trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
    const extra = {
      ...last,
      type: 'user',
      uuid: '00000000-0000-4000-8000-0000000000aa',
      parentUuid: last.uuid ?? null,
      timestamp: new Date().toISOString(),
      message: { role: 'user', content: 'appended while serving' },
    };
    const id = file.replace(/\.jsonl$/, '');
    // the watcher may still be setting up: append until the change is seen
    let seen: LiveMessage | undefined;
    for (let i = 0; i < 50 && !seen; i++) {
      await appendFile(
        join(project, file),
        `${JSON.stringify({ ...extra, uuid: `${extra.uuid.slice(0, -2)}${String(i).padStart(2, '0')}` })}\n`,
      );
      await new Promise((r) => setTimeout(r, 200));
      seen = events.messages.find((m) => m.type === 'session-updated' && m.sessionId === id);
    }
    expect(seen).toEqual({ type: 'session-updated', sessionId: id });
    abort.abort();
    await events.pump;
  });

  it('reports a failed build and keeps serving', async () => {
    server = await startServer({ index, paths: [join(tmp, 'missing')], host: '127.0.0.1', port: 0 });
    expect(await server.indexed).toBeUndefined();
    const health = await getJson<HealthResponse>('api/health');
    expect(health.index.state).toBe('ready');
    expect(health.index.error).toMatch(/no such file or directory/);
    expect((await getJson<SessionsResponse>('api/sessions')).total).toBe(0);
  });

  it("says why a live refresh failed (another version's rebuild of the index), until one works again", async () => {
    // no worker threads: one of this build opening the index after the other version's rebuild would rebuild it again
    server = await startServer({ index, paths: [home], host: '127.0.0.1', port: 0, sessionWorker: false });
    await server.indexed;
    const project = join(home, 'projects', '-home-user-proj-shell');
    const file = join(project, (await readdir(project)).find((f) => f.endsWith('.jsonl'))!);
    const line = (await readFile(file, 'utf8')).trim().split('\n').at(-1)!;
    /**
     * Append a copy of the last line (again while the watcher is still setting up), then wait, without writing more,
     * until the health's error is `wanted`: a file written a moment ago is held back until it settles.
     */
    const errorAfterAppend = async (wanted: (error: string | null) => boolean) => {
      let error: string | null = null;
      for (let i = 0; i < 100; i++) {
        if (i % 25 === 0) await appendFile(file, `${line}\n`);
        await new Promise((r) => setTimeout(r, 200));
        error = (await getJson<HealthResponse>('api/health')).index.error;
        if (wanted(error)) break;
      }
      return error;
    };
    markDerivedVersion(index.dbPath);
    expect(await errorAfterAppend((e) => e !== null)).toMatch(/rebuilt by another version of AgentDash/);
    markDerivedVersion(index.dbPath, 'this build');
    expect(await errorAfterAppend((e) => e === null)).toBeNull();
  });
});
