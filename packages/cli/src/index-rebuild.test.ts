/**
 * Two AgentDash installs on one index (a global one and `npx agentdash@latest`, or an old one in Claude Code's status
 * line): the older one rebuilt the index a newer one built, and the newer one rebuilt it again on its next run, each
 * time a whole cold index. Now the older one refuses it, says how to go on, and `index --rebuild` takes it over.
 */
import { join } from 'node:path';
import { DERIVED_VERSION } from '@agentdash/index';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { ExitCode } from './errors.js';
import type { IndexJson, SessionsJson } from './output/json-types.js';

const sb = cliSandbox('agentdash-cli-rebuild-');
const { cli, json } = sb;

/** The index's derived version. */
function derivedVersion(): number {
  const db = new Database(sb.db, { readonly: true });
  try {
    return db.prepare('SELECT max(version) FROM derived_version').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('an index a newer AgentDash built', () => {
  it('is refused by every command, left as it is, and taken over by index --rebuild', async () => {
    const { home } = writeDemoHome(join(sb.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    expect(json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions).toHaveLength(1);
    markDerivedVersion(sb.db, DERIVED_VERSION + 1);
    for (const argv of [
      ['sessions', home],
      ['stats', home],
      ['index', home],
    ]) {
      const r = await cli(argv);
      expect([argv[0], r.code]).toEqual([argv[0], ExitCode.badPath]);
      expect(r.stderr).toContain(
        `was built by a newer AgentDash (derived data ${DERIVED_VERSION + 1}; this one's ${DERIVED_VERSION})`,
      );
      expect(r.stderr).toContain('"agentdash index --rebuild"');
    }
    expect(derivedVersion()).toBe(DERIVED_VERSION + 1);
    const rebuilt = json<IndexJson>(await cli(['index', home, '--rebuild', '--json']));
    expect([rebuilt.sessions, rebuilt.filesParsed]).toEqual([1, rebuilt.files]);
    expect(derivedVersion()).toBe(DERIVED_VERSION);
    expect(json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions).toHaveLength(1);
  });

  it('index --rebuild of a current index reads every file again; without it nothing is read', async () => {
    const { home } = writeDemoHome(join(sb.dir, 'home2'), { outputOnlyWord: 'c', subagentOnlyWord: 'd' });
    const first = json<IndexJson>(await cli(['index', home, '--json']));
    expect(first.filesParsed).toBeGreaterThan(0);
    expect(json<IndexJson>(await cli(['index', home, '--json'])).filesParsed).toBe(0);
    const again = json<IndexJson>(await cli(['index', home, '--rebuild', '--json']));
    expect([again.filesParsed, again.sessions]).toEqual([first.filesParsed, first.sessions]);
  });
});
