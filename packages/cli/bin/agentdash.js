#!/usr/bin/env node
// Launcher committed in source so that `npm install` can link the `agentdash` bin before `prepare` has built the
// program (npm skips bins whose target is missing). The program is bundle/bin.js (scripts/bundle-cli.mjs: one file
// and a few chunks start faster than the hundreds of modules TypeScript writes), else dist/bin.js as TypeScript built it. In the repository, a
// bundle older than the last TypeScript build of any package (`tsc -b` without `npm run build`) is not used.
import { existsSync, statSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code of the modules loaded after this in a cache folder of Node's own (in
// the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and reuse it at the next start: a warm
// command compiles nothing. Node 20 has no such cache: there, this does nothing.
module.enableCompileCache?.();

const bundled = new URL('../bundle/bin.js', import.meta.url);
const mtime = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs;
const bundledAt = mtime(bundled);
const inRepository = existsSync(new URL('../src/bin.ts', import.meta.url));
const builtAt = inRepository
  ? Math.max(
      0,
      ...['core', 'api', 'index', 'server', 'team', 'cli'].map(
        (name) => mtime(new URL(`../../${name}/dist/.tsbuildinfo`, import.meta.url)) ?? 0,
      ),
    )
  : 0;
await import(bundledAt !== undefined && bundledAt >= builtAt ? bundled.href : '../dist/bin.js');
