#!/usr/bin/env node
/**
 * Bundle the built CLI (packages/cli/dist/bin.js) and the worker scripts it starts into packages/cli/bundle/, which
 * the `agentdash` launcher runs when present. Node 20 loads ES modules one file at a time: the unbundled program is
 * hundreds of files (zod alone is a hundred), which costs a noticeable part of every start. Commands stay loaded on
 * demand (each dynamic import is a chunk of its own, or the chunk its module already sits in: `skipFacades`); the
 * workers are entries beside the chunks, where `builtWorkerScript` looks for them. Node's built-ins and the native
 * addons better-sqlite3 and zstd-napi (dependencies of the package) stay outside, but for better-sqlite3's
 * JavaScript where the index opens it (`bundledSqlite`). The built dashboard is copied beside them.
 */

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, rolldown } from 'rolldown';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'packages/cli/bundle');

const input = {
  bin: join(root, 'packages/cli/dist/bin.js'),
  'parse-worker': join(root, 'packages/index/dist/write/parse-worker.js'),
  'session-worker': join(root, 'packages/server/dist/session-worker.js'),
  'watch-worker': join(root, 'packages/server/dist/watch-worker.js'),
  'otlp-worker': join(root, 'packages/server/dist/otlp-worker.js'),
};
const OWN_MODULE = /[\\/]packages[\\/](core|api|index)[\\/]dist[\\/]/;
const options = {
  input,
  platform: 'node',
  // better-sqlite3 outside but for the one require that `releaseClass` makes (`bundledSqlite`); `bindings`, its
  // default addon finder, only ever runs from the installed package (`installedClass`).
  external: [/^node:/, 'bindings', 'zstd-napi'],
  // Node's built-ins named without `node:` (the PostgreSQL client's `net`, `tls`, …) are imported as `node:` ones
  plugins: [
    bundledSqlite(),
    {
      name: 'node-prefix',
      resolveId: (id) => (builtinModules.includes(id) ? { id: `node:${id}`, external: true } : null),
    },
  ],
  // The packages' own export condition for running from sources is not for the bundle: it takes their dist.
  resolve: { conditionNames: ['import', 'node', 'default'] },
  logLevel: 'warn',
  // The packages' own modules do nothing when loaded but define (core's one top-level statement configures zod in a
  // browser only): a module none of whose exports a chunk uses is left out of it, as a barrel's other modules are.
  treeshake: { moduleSideEffects: (id, external) => external || !OWN_MODULE.test(id) },
};
/**
 * better-sqlite3's JavaScript in the bundle: required by path at run time, it is fourteen CommonJS files to find,
 * read and wrap at every start that opens the index. Only `releaseClass`'s require is taken in
 * (a require the bundler follows); the other requires of the package stay as they are, at run time.
 */
function bundledSqlite() {
  const line = "const releaseClass = () => createRequire(import.meta.url)('better-sqlite3');";
  return {
    name: 'bundled-sqlite',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith('packages/index/dist/schema/sqlite-addon.js')) return null;
      if (!code.includes(line)) throw new Error(`bundle: sqlite-addon.js no longer holds \`${line}\``);
      return code.replace(line, "const releaseClass = () => require('better-sqlite3');");
    },
  };
}

const naming = { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' };

/**
 * The commands a warm index answers (and what they all load: the context, with the light connection). Node 20 loads
 * an ES module file by file, each costing CPU however small: split as the dynamic imports fall, these commands load
 * some twenty chunks. Their modules go into a few chunks of their own, by the workers that load them too (none, the
 * parse worker, …), so that no worker loads a module it did not load before.
 */
const WARM_ROOTS = ['context', 'commands/stats', 'commands/usage', 'commands/sessions', 'commands/index-cmd']
  .map((m) => join(root, `packages/cli/dist/${m}.js`))
  .concat(agentHomeModules());

/** Each adapter folder's `homes.js`: the context loads every agent's homes through the registry's `import()`s. */
function agentHomeModules() {
  const adapters = join(root, 'packages/core/dist/adapters');
  return readdirSync(adapters)
    .map((folder) => join(adapters, folder, 'homes.js'))
    .filter((path) => existsSync(path));
}

/** Every module in the chunks `fileName` loads before it runs (its static imports, followed), its own included. */
function staticClosure(chunks, fileName, into = new Set()) {
  const seen = new Set();
  const visit = (name) => {
    const chunk = chunks.get(name);
    if (chunk === undefined || seen.has(name)) return;
    seen.add(name);
    for (const id of chunk.moduleIds) into.add(id);
    for (const next of chunk.imports) visit(next);
  };
  visit(fileName);
  return into;
}

/**
 * The warm commands' modules, each with the name of its chunk: `warm`, and the workers that load it too. Found in a
 * first pass that keeps every module a chunk of its own, so that a module's imports are only the modules whose
 * exports it uses (chunks as the dynamic imports fall would hold others: `oneLine`'s chunk held zod's).
 */
async function warmChunkNames() {
  const first = await rolldown(options);
  const { output } = await first.generate({ ...naming, preserveModules: true });
  await first.close();
  const chunks = new Map(output.filter((o) => o.type === 'chunk').map((c) => [c.fileName, c]));
  const warm = new Set();
  for (const rootId of WARM_ROOTS) {
    const chunk = [...chunks.values()].find((c) => c.moduleIds.includes(rootId));
    if (chunk === undefined) throw new Error(`bundle: no chunk holds ${rootId}`);
    staticClosure(chunks, chunk.fileName, warm);
  }
  const workers = Object.keys(input)
    .filter((name) => name !== 'bin')
    .map((name) => [name, staticClosure(chunks, `${name}.js`)]);
  return new Map(
    [...warm].map((id) => [id, ['warm', ...workers.filter(([, ids]) => ids.has(id)).map(([name]) => name)].join('+')]),
  );
}

const warm = await warmChunkNames();
/**
 * A dynamic import of a module that sits in another chunk (each agent's homes, which the registry's descriptors load
 * with `import()` and which sit in the warm commands' chunk) comes out as a one-line chunk re-exporting it: a file
 * more to load at every warm start, per agent. Each such import is pointed at the chunk itself and the facade removed.
 */
function skipFacades(output) {
  const chunks = output.filter((o) => o.type === 'chunk');
  const facades = new Map();
  for (const chunk of chunks) {
    const only = /^export \{ ([\w$]+) as ([\w$]+) \} from "\.\/(chunk-[\w-]+\.js)";\s*$/.exec(chunk.code);
    const imported = chunks.some((c) => c.imports.includes(chunk.fileName));
    if (chunk.isDynamicEntry && only && !imported) facades.set(chunk.fileName, only);
  }
  for (const chunk of chunks) {
    if (facades.has(chunk.fileName)) continue;
    const path = join(out, chunk.fileName);
    let code = readFileSync(path, 'utf8');
    for (const [file, [, local, name, target]] of facades) {
      code = code.replaceAll(`import("./${file}")`, `import("./${target}").then((m) => ({ ${name}: m.${local} }))`);
    }
    if (code !== chunk.code) writeFileSync(path, code);
  }
  for (const file of facades.keys()) rmSync(join(out, file));
}

rmSync(out, { recursive: true, force: true });
const bundled = await build({
  ...options,
  // Required by the groups below; nothing imports an entry's exports (the workers are files run as they are).
  preserveEntrySignatures: 'allow-extension',
  output: {
    dir: out,
    ...naming,
    codeSplitting: {
      // Exactly these modules: a module's static imports are loaded by every worker that loads it, so each chunk
      // imports only chunks of the same workers or more (no cycle).
      groups: [{ name: (id) => warm.get(id) ?? null, debugName: 'warm', includeDependenciesRecursively: false }],
    },
  },
});
skipFacades(bundled.output);
// The dashboard beside the bundle, where the server looks first (`defaultAssetsDir`): a package installed from the
// registry has no packages/web.
const web = join(root, 'packages/web/dist');
if (existsSync(join(web, 'index.html'))) cpSync(web, join(out, 'web'), { recursive: true });

// The bundle must start. A change of the module graph can make chunks import each other in a cycle, and a cycle
// holding a top-level await never settles: Node then exits with 13 and prints nothing, in every command.
const started = spawnSync(process.execPath, [join(out, 'bin.js'), '--version'], { encoding: 'utf8' });
const version = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')).version;
if (started.status !== 0 || started.stdout.trim() !== version) {
  console.error(
    `bundle-cli: packages/cli/bundle/bin.js --version exits ${started.status ?? started.signal} (stdout ${JSON.stringify(started.stdout.trim())}, expected ${version})` +
      (started.status === 13 ? ': a top-level await that never settles, most likely a cycle between chunks' : '') +
      `\n${started.stderr}`,
  );
  rmSync(out, { recursive: true, force: true });
  process.exit(1);
}
