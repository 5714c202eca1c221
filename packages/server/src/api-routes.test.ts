/**
 * Every JSON route the server answers under `/api` is in `@agentdash/api`'s route table (`ApiRoutes`), so the table
 * types every answer a client can ask for; only the routes that answer no JSON (downloads, the SSE stream) are not.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiPath } from '@agentdash/api';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from './app.js';

/** The table's paths: a path missing here or not in the table is a compile error. */
const tablePaths = {
  '/health': true,
  '/agents': true,
  '/team/people': true,
  '/sessions': true,
  '/sessions/:id': true,
  '/sessions/:id/events': true,
  '/sessions/:id/calls': true,
  '/sessions/:id/calls/:callId': true,
  '/sessions/:id/locate/:callId': true,
  '/sessions/:id/errors': true,
  '/sessions/:id/find': true,
  '/sessions/:id/issues': true,
  '/sessions/:id/waterfall': true,
  '/sessions/:id/files': true,
  '/sessions/:id/versions': true,
  '/stats': true,
  '/usage': true,
  '/calls': true,
  '/telemetry/setup': true,
  '/telemetry/ids': true,
  '/telemetry/sessions': true,
  '/telemetry/sessions/:id': true,
  '/telemetry/measured/:id': true,
  '/telemetry/sessions/:id/steps': true,
} as const satisfies Record<ApiPath, true>;

/** The routes that answer no JSON, with what they answer. */
const notJson: Readonly<Record<string, string>> = {
  '/events': 'the live events, an SSE stream',
  '/sessions/:id/export': 'a download in the chosen format',
  '/sessions/:id/export.html': 'a download, the self-contained page',
  '/sessions/:id/versions/partial': 'a download of the partial copy in the chosen format',
};

/** In the table, not served here: a team server's route (a local server answers 404). */
const teamOnly = new Set<string>(['/team/people']);

let tmp: string;
let index: AgentIndex;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-api-routes-'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

it("the route table holds every JSON route the server answers, and only the server's", () => {
  const app = createApp({ index, paths: [tmp], host: '127.0.0.1', port: 4319 });
  const served = app.routes
    .filter((route) => route.method === 'GET' && route.path.startsWith('/api/'))
    .map((route) => route.path.slice('/api'.length));
  const table = Object.keys(tablePaths);
  expect(served.filter((path) => !(path in tablePaths) && !(path in notJson))).toEqual([]);
  expect(table.filter((path) => !served.includes(path) && !teamOnly.has(path))).toEqual([]);
  expect(Object.keys(notJson).filter((path) => !served.includes(path))).toEqual([]);
});
