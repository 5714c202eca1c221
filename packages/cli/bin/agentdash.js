#!/usr/bin/env node
// Launcher committed in source so that `npm install` can link the `agentdash` bin before `prepare` has built the
// program (npm skips bins whose target is missing). The program is bundle/bin.js (scripts/bundle-cli.mjs: one file
// and a few chunks start faster than ~250 modules), else dist/bin.js as TypeScript built it.
import { existsSync } from 'node:fs';

const bundled = new URL('../bundle/bin.js', import.meta.url);
await import(existsSync(bundled) ? bundled.href : '../dist/bin.js');
