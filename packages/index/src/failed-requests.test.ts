/**
 * Sessions that died on an API error: the list said 0 errors and "Has errors" left them out, though the run ended in
 * an error. The index counts failed requests and retried attempts (core's `requestFailureOf`) per session: the list,
 * the stored header and a load agree, the errors filter and sort take them. Bundled: the recorded 2.1.330 API
 * scenarios; with `../shared/corpus`, every recorded version: a session holds a failed request exactly when the
 * client's run ended with `is_error` (manifest.json).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const apiHome = join(repoRoot, 'packages/core/test/fixtures/claude/claude-home/projects/-home-user-proj-api');
const corpusRoot = resolve(repoRoot, '../shared/corpus');
const corpusVersions = ['1.0.128', '2.0.50', '2.0.76', '2.1.330'].filter((v) =>
  existsSync(join(corpusRoot, v, 'manifest.json')),
);

let dir: string;
let index: AgentIndex;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-failed-requests-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([apiHome]);
});
afterAll(() => {
  index?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('failed requests in the index', () => {
  it('are counted alike by the list, the stored header and a load', async () => {
    const got: Record<string, unknown> = {};
    for (const s of index.listSessions()) {
      const header = index.sessionHeader(s.key);
      const loaded = await index.loadSession(s.key);
      got[s.id.slice(0, 8)] = {
        list: [s.apiErrors, s.apiRetries],
        header: [header?.counts.failedRequests, header?.counts.retriedRequests],
        load: [loaded.counts.failedRequests, loaded.counts.retriedRequests],
        errors: s.errors,
      };
    }
    expect(got).toMatchObject({
      '698d1a6c': { list: [1, 0], header: [1, 0], load: [1, 0], errors: 0 },
      '4da1eb3d': { list: [1, 1], header: [1, 1], load: [1, 1], errors: 0 },
      '30a34b12': { list: [0, 3], header: [0, 3], load: [0, 3], errors: 0 },
    });
  });

  it('are errors to the errors filter and sort; retried attempts alone are not', () => {
    const ids = (filter: Parameters<AgentIndex['listSessions']>[0]) =>
      index.listSessions(filter).map((s) => s.id.slice(0, 8));
    expect(ids({ hasErrors: true }).sort()).toEqual(['4da1eb3d', '698d1a6c']);
    expect(ids({ hasErrors: false })).not.toContain('4da1eb3d');
    expect(ids({ hasErrors: false })).toContain('30a34b12');
    const page = index.pageSessions({}, { sort: 'errors', limit: 2 });
    expect(page.sessions.map((s) => s.id.slice(0, 8)).sort()).toEqual(['4da1eb3d', '698d1a6c']);
  });
});

describe.skipIf(corpusVersions.length === 0)('failed requests over the recorded corpus', () => {
  it('are in the sessions whose run ended in an error, and in no other', async () => {
    for (const version of corpusVersions) {
      const manifest = JSON.parse(readFileSync(join(corpusRoot, version, 'manifest.json'), 'utf8')) as {
        scenarios: { runs?: { sessionId: string; isError: boolean }[] }[];
      };
      const runs = manifest.scenarios.flatMap((s) => s.runs ?? []);
      const corpus = openIndex({ dbPath: join(dir, `${version}.sqlite`) });
      try {
        await corpus.refresh([join(corpusRoot, version, 'claude-home')]);
        const failed = corpus
          .listSessions()
          .filter((s) => (s.apiErrors ?? 0) > 0)
          .map((s) => s.id)
          .sort();
        const ended = runs.filter((r) => r.isError).map((r) => r.sessionId);
        expect({ version, failed }).toEqual({ version, failed: [...new Set(ended)].sort() });
        expect(ended.length).toBeGreaterThan(0);
      } finally {
        corpus.close();
      }
    }
    // four corpus homes indexed cold: the corpus's time, not a unit test's (the fast loop's 5 s)
  }, 60_000);
});
