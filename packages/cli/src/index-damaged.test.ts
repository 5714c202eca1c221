/**
 * An index file damaged past what opening it checks (a page of its sessions table overwritten: SQLite says so only
 * when a query reaches the page). Every command answered "internal error … this is a bug in agentdash, please report
 * it" (exit 1); it now names the file, says it is damaged and what mends it (exit 14, kind `index-damaged`), and
 * `index --rebuild` does mend it, the damaged file kept aside.
 */
import { openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { ExitCode } from './errors.js';
import type { ErrorJson, SessionsJson } from './output/json-types.js';

const sb = cliSandbox('agentdash-cli-damaged-');
const { cli, json } = sb;

/** Overwrites the root page of the index's `sessions` table, its WAL folded in first, with bytes of no b-tree page. */
function damageSessionsTable(db: string): void {
  const conn = new Database(db);
  conn.pragma('wal_checkpoint(TRUNCATE)');
  const root = conn.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'sessions'").pluck().get() as number;
  const pageSize = conn.pragma('page_size', { simple: true }) as number;
  conn.close();
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0x7f), 0, pageSize, (root - 1) * pageSize);
}

it('names the damaged index and its mend (exit 14), and index --rebuild mends it', async () => {
  const { home } = writeDemoHome(join(sb.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
  expect(json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions).toHaveLength(1);
  damageSessionsTable(sb.db);

  const text = await cli(['sessions', home]);
  expect(text.code).toBe(ExitCode.indexDamaged);
  expect(text.stderr).toBe(
    `agentdash: the index database ${sb.db} is damaged (database disk image is malformed): \`agentdash index --rebuild\` moves the file aside (kept) and builds the index again from the transcripts, with what still reads of its archive\n`,
  );
  const asJson = await cli(['stats', home, '--json']);
  expect(asJson.stdout).toBe('');
  expect((JSON.parse(asJson.stderr) as ErrorJson).error).toMatchObject({
    kind: 'index-damaged',
    exitCode: ExitCode.indexDamaged,
  });

  const rebuilt = await cli(['index', home, '--rebuild']);
  expect(rebuilt.code).toBe(0);
  expect(rebuilt.stderr).toMatch(/was unusable \(database disk image is malformed\); moved it to .*\.corrupt-/);
  expect(readdirSync(sb.dir).filter((name) => name.includes('.corrupt-')).length).toBeGreaterThan(0);
  expect(json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions).toHaveLength(1);
});
