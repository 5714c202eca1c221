/**
 * Two builds of AgentDash on one index at once: an upgrade in place while `serve` runs (its later worker threads load
 * the new files), or two versions run side by side. The one that finds the index in another build's shape writes
 * nothing into it and says to restart; a worker thread of another build than its parent's never opens it. (Seen on
 * the wild homes: a session worker started after a rebuild of the files rebuilt the served index's derived tables
 * empty, and the dashboard listed no session.)
 */
import { join } from 'node:path';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import { OtherBuildError } from './errors.js';
import { DERIVED_VERSION } from './schema/schema-version.js';
import { BUILD_STAMP, BUILD_STAMP_FIELD } from './worker-loaded.js';
import { builtWorkerScript, startBuiltWorker, stopWorker } from './worker-script.js';

const t = useTempIndex('agentdash-other-build-');

function session(home: string, text: string): void {
  const id = nextSessionId();
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`), [prompt(basesOf(id)('u1', null, 0), text)]);
}

describe('another build of AgentDash on the same index', () => {
  it('writes nothing into derived tables another version rebuilt since it opened them, and says to restart', async () => {
    const home = join(t.dir, 'home');
    session(home, 'First');
    await t.index.refresh([home]);
    expect(t.index.listSessions({ hideEmpty: false })).toHaveLength(1);
    // another version's process opens the index: its derived tables built again in its shape, empty
    markDerivedVersion(join(t.dir, 'db', 'index.sqlite'));
    session(home, 'Second');
    const refreshed = t.index.refresh([home]);
    await expect(refreshed).rejects.toBeInstanceOf(OtherBuildError);
    // a newer one's: this one would be refused if restarted
    await expect(refreshed).rejects.toThrow(/another version of AgentDash.*a newer one.*upgrade this AgentDash/);
    const db = new Database(join(t.dir, 'db', 'index.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(1);
      expect(db.prepare('SELECT max(version) FROM derived_version').pluck().get()).toBe(DERIVED_VERSION + 1);
    } finally {
      db.close();
    }
  });

  it('says to restart when an older version rebuilt them (its index --rebuild): this one rebuilds them again', async () => {
    const home = join(t.dir, 'home');
    session(home, 'First');
    await t.index.refresh([home]);
    markDerivedVersion(join(t.dir, 'db', 'index.sqlite'), DERIVED_VERSION - 1);
    session(home, 'Second');
    const refreshed = t.index.refresh([home]);
    await expect(refreshed).rejects.toThrow(/another version of AgentDash.*an older one: restart this AgentDash/);
    t.index.close();
    t.index = t.open('index.sqlite');
    await t.index.refresh([home]);
    expect(t.index.listSessions({ hideEmpty: false })).toHaveLength(2);
  });

  it("stops a worker thread whose script is of another build than its parent's before it opens anything", async () => {
    const script = builtWorkerScript('parse-worker.js', new URL('./write/parse-pool.ts', import.meta.url).href);
    expect(script).toBeDefined();
    const worker = startBuiltWorker(script as URL, {
      workerData: { [BUILD_STAMP_FIELD]: 'index schema 1, derived data 1' },
    });
    const failed = await Promise.race([
      new Promise<Error & { code?: string }>((resolve) => worker.once('error', resolve)),
      new Promise<undefined>((resolve) => setTimeout(resolve, 10_000)),
    ]);
    expect(failed?.message).toMatch(/files changed while it ran.*derived data 1, its worker script of .*restart/);
    expect(failed?.code).toBe('INDEX_UNAVAILABLE');
    await stopWorker(worker);
    // of the parent's build, it starts
    const same = startBuiltWorker(script as URL);
    const error = await Promise.race([
      new Promise<Error>((resolve) => same.once('error', resolve)),
      new Promise<undefined>((resolve) => setTimeout(resolve, 500)),
    ]);
    expect(error).toBeUndefined();
    await stopWorker(same);
    expect(BUILD_STAMP).toContain(`derived data ${DERIVED_VERSION}`);
  });
});
