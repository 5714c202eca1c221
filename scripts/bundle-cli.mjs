#!/usr/bin/env node
/**
 * Bundle the built CLI (packages/cli/dist/bin.js) and the worker scripts it starts into packages/cli/bundle/, which
 * the `agentdash` launcher runs when present. Node 20 loads ES modules one file at a time: the unbundled program is
 * about 250 files (zod alone is 100), which costs 100–200 ms at every start. Commands stay loaded on demand (each
 * dynamic import is a chunk of its own); the workers are entries beside the chunks, where `builtWorkerScript` looks
 * for them. Node's built-ins and the native addons better-sqlite3 and zstd-napi (dependencies of the package) stay
 * outside. The built dashboard is copied beside them.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'packages/cli/bundle');

rmSync(out, { recursive: true, force: true });
await build({
  input: {
    bin: join(root, 'packages/cli/dist/bin.js'),
    'parse-worker': join(root, 'packages/index/dist/write/parse-worker.js'),
    'session-worker': join(root, 'packages/server/dist/session-worker.js'),
    'watch-worker': join(root, 'packages/server/dist/watch-worker.js'),
    'otlp-worker': join(root, 'packages/server/dist/otlp-worker.js'),
  },
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'zstd-napi'],
  // Node's built-ins named without `node:` (the PostgreSQL client's `net`, `tls`, …) are imported as `node:` ones
  plugins: [
    {
      name: 'node-prefix',
      resolveId: (id) => (builtinModules.includes(id) ? { id: `node:${id}`, external: true } : null),
    },
  ],
  // The packages' own export condition for running from sources is not for the bundle: it takes their dist.
  resolve: { conditionNames: ['import', 'node', 'default'] },
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' },
});
// The dashboard beside the bundle, where the server looks first (`defaultAssetsDir`): a package installed from the
// registry has no packages/web.
const web = join(root, 'packages/web/dist');
if (existsSync(join(web, 'index.html'))) cpSync(web, join(out, 'web'), { recursive: true });
