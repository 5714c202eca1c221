import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndex } from '../index.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../core/test/fixtures');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-archived-agents-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The sessions listed: agent, messages, whether read from the archive. */
async function listed(db: string, home: string) {
  const index = openIndex({ dbPath: db });
  try {
    await index.refresh([home]);
    return index
      .listSessions({ paths: [home] })
      .map((s) => `${s.agent} ${s.messages} ${s.archived}`)
      .sort();
  } finally {
    index.close();
  }
}

/** What a new version's derived tables do to an index: dropped and read again (as a `DERIVED_VERSION` change does). */
function rebuildLater(db: string): void {
  const sqlite = new Database(db);
  sqlite.exec('DELETE FROM derived_version; INSERT INTO derived_version (version) VALUES (1)');
  sqlite.close();
}

describe("an agent's files gone from disk, after the index is rebuilt", () => {
  it.each([
    ['Codex rollouts', 'codex/0.171.0/codex-home'],
    ['Codex exec --json outputs', 'codex/exec'],
    ['Gemini stream-json outputs', 'gemini/stream-json'],
  ])("%s are read from the archive as their agent's sessions, as before", async (_, fixture) => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, fixture), home, { recursive: true });
    const db = join(dir, 'index.sqlite');
    const onDisk = await listed(db, home);
    expect(onDisk.length).toBeGreaterThan(0);
    for (const file of filesUnder(home)) rmSync(file);
    const archived = onDisk.map((s) => s.replace(/ false$/, ' true'));
    expect(await listed(db, home)).toEqual(archived);
    // Before: every one a Claude session of no message (the derived rows that knew the agent were dropped).
    rebuildLater(db);
    expect(await listed(db, home)).toEqual(archived);
  });

  it('take their agent from the index of an earlier version that knew it, when it upgrades', async () => {
    const home = join(dir, 'home');
    cpSync(join(fixtures, 'codex/0.171.0/codex-home'), home, { recursive: true });
    const db = join(dir, 'index.sqlite');
    const onDisk = await listed(db, home);
    // The index as the last version left it: an archive without the agents, the files' rows still there.
    const sqlite = new Database(db);
    sqlite.exec(`ALTER TABLE archive_files DROP COLUMN agent; ALTER TABLE archive_files DROP COLUMN headless;
      PRAGMA user_version = 28; DELETE FROM derived_version; INSERT INTO derived_version (version) VALUES (1)`);
    sqlite.close();
    for (const file of filesUnder(home)) rmSync(file);
    expect(await listed(db, home)).toEqual(onDisk.map((s) => s.replace(/ false$/, ' true')));
  });
});
