/** The built dashboard's files: served from their folder, never outside it, each built file read once. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';

const PORT = 4317;
const HOST = { host: `127.0.0.1:${PORT}` };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;
let assetsDir: string;

const get = (path: string) => app.request(path, { headers: HOST });

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-static-'));
  assetsDir = join(tmp, 'assets');
  await mkdir(join(assetsDir, 'assets'), { recursive: true });
  await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test</title>');
  await writeFile(join(assetsDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(tmp, 'secret.txt'), 'do not serve');
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  app = createApp({ index, paths: [], host: '127.0.0.1', port: PORT, assetsDir });
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('assets', () => {
  it('serves files of the assets folder and falls back to index.html, never leaving it', async () => {
    const js = await get('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    for (const path of ['/', '/sessions', '/..%2Fsecret.txt']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('AgentDash test');
    }
  });

  it("sends a path below a folder to the dashboard's root, relatively (its page's relative links would miss)", async () => {
    for (const [path, to] of [
      ['/sessions/abc', '../'],
      ['/sessions/abc/', '../../'],
      ['/a/b/c', '../../'],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toBe(to);
      expect(new URL(to, `http://127.0.0.1${path}`).pathname, path).toBe('/');
    }
  });

  it('answers 404 for a built file that is not there (an old tab asking for its old chunks), never index.html', async () => {
    for (const path of ['/assets/AnalyticsPage-0ld0ld.js', '/assets/..%2F..%2Fsecret.txt']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('AgentDash test');
    }
  });

  it('reads a built file once (its name is its content), index.html on every load', async () => {
    await writeFile(join(assetsDir, 'assets', 'once-a1b2.js'), 'console.log("first build")');
    expect(await (await get('/assets/once-a1b2.js')).text()).toBe('console.log("first build")');
    // A new build replaces the folder: the name served keeps its content (a tab open across it still loads its
    // chunks); a changed index.html is served at once.
    await rm(join(assetsDir, 'assets', 'once-a1b2.js'));
    const again = await get('/assets/once-a1b2.js');
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('console.log("first build")');
    expect(again.headers.get('cache-control')).toContain('immutable');
    await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test, rebuilt</title>');
    expect(await (await get('/')).text()).toContain('rebuilt');
    await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test</title>');
  });

  it('keeps nothing but the built files: index.html reached through /assets/ is read again, not immutable', async () => {
    const first = await get('/assets/..%2Findex.html');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(await first.text()).toContain('AgentDash test');
    await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test, changed</title>');
    expect(await (await get('/assets/..%2Findex.html')).text()).toContain('changed');
    await writeFile(join(assetsDir, 'index.html'), '<!doctype html><title>AgentDash test</title>');
  });
});
