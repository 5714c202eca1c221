import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The built dashboard: `dist/web` inside this package when installed from the registry (copied there at pack
 * time), else `packages/web/dist` in the repository.
 */
export function defaultAssetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const packaged = resolve(here, 'web');
  return existsSync(join(packaged, 'index.html')) ? packaged : resolve(here, '../../web/dist');
}

const MISSING = `<!doctype html><html><head><meta charset="utf-8"><title>AgentDash</title></head>
<body style="font-family:sans-serif"><h1>AgentDash</h1><p>The web dashboard is not built. Run
<code>npm run build -w @agentdash/web</code>. The JSON API is available under <code>/api</code>.</p></body></html>`;

/** A built file as it is served. */
interface Served {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly type: string;
}

/**
 * The files under `/assets/` already served, by path: a build names each after a hash of its content, so what is
 * read once stays true for as long as the file is there (a new build writes new names beside it). A page load asks
 * for a dozen of them; reading each again made every load a dozen `stat`s and reads. Bounded by the build's own
 * files: only a name the folder lists, exactly, is kept (on a disk that ignores case, `/assets/APP.js` opens
 * `app.js` and is served, but not kept again under its other spelling).
 */
const builtFiles = new Map<string, Served>();

/** Each assets folder's names, as last listed. */
const listings = new Map<string, ReadonlySet<string>>();

/** Whether `folder` lists `name` exactly (listed again when it did not: a new build may have written it since). */
async function listed(folder: string, name: string): Promise<boolean> {
  if (listings.get(folder)?.has(name)) return true;
  const names = new Set(await readdir(folder).catch(() => []));
  listings.set(folder, names);
  return names.has(name);
}

async function readServed(target: string): Promise<Served | undefined> {
  const info = await stat(target).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const body = await readFile(target).catch(() => undefined);
  return body === undefined ? undefined : { body, type: TYPES[extname(target)] ?? 'application/octet-stream' };
}

/**
 * Serves a file of the assets folder, or index.html for any other path (SPA fallback) but a missing `/assets/` file
 * (404). Never leaves the folder.
 */
export async function serveAsset(c: Context, assetsDir: string): Promise<Response> {
  const root = resolve(assetsDir);
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(c.req.url).pathname);
  } catch {
    return c.json({ success: false, error: 'bad path' }, 400);
  }
  const target = normalize(join(root, rel));
  const inside = target === root || target.startsWith(root + sep);
  // A built file: directly in the assets folder once the path is resolved (`/assets/../index.html` is not one).
  const assets = join(root, 'assets');
  const built = dirname(target) === assets;
  if (inside && target !== root) {
    let file = built ? builtFiles.get(target) : undefined;
    if (file === undefined) {
      file = await readServed(target);
      if (file !== undefined && built && (await listed(assets, basename(target)))) builtFiles.set(target, file);
    }
    if (file !== undefined) {
      return c.body(file.body, 200, {
        'Content-Type': file.type,
        'Cache-Control': built ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
    }
  }
  // A built file that is not there (a tab left open across an upgrade asks for its old chunks): a 404 the page can
  // tell apart, not index.html, which a browser refuses as a script with no word of why.
  if (rel.startsWith('/assets/')) return c.text('not found', 404, { 'Cache-Control': 'no-cache' });
  // index.html links its files relatively (`./assets/…`, so that it works under a proxy's prefix): below a folder,
  // `/sessions/abc`, they would resolve to `/sessions/assets/…` and the page stay blank. The app's routes are in the
  // hash; such a path is sent to the dashboard's root, named relatively too.
  const depth = new URL(c.req.url).pathname.split('/').length - 2; // as the browser resolves links: undecoded
  if (depth > 0) return c.redirect('../'.repeat(depth), 302);
  const index = await readFile(join(root, 'index.html')).catch(() => undefined);
  if (!index) return c.html(MISSING, 200);
  return c.body(index, 200, { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-cache' });
}
