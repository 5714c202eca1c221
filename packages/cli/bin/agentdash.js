#!/usr/bin/env node
// Launcher committed in source so that `npm install` can link the `agentdash` bin before `prepare` has built
// dist/ (npm skips bins whose target is missing). The program itself is dist/bin.js.
import '../dist/bin.js';
