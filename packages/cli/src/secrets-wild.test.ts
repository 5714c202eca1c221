/**
 * `agentdash secrets` over real transcripts (../shared/wild and ../shared/wild-agents/codex, issue 36): one finding
 * per file, line and rule, no placeholder values (Go test fixtures, `.env` examples, translation strings), and the
 * sessions list's count the same as the listing's.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../test/harness.js';
import type { SecretsJson, SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const shared = resolve(here, '../../../../shared');
const homes = [join(shared, 'wild/claude-home'), join(shared, 'wild-agents/codex')];
const present = homes.every((h) => existsSync(h));

let dir: string;
const cli = (args: readonly string[]) => runCli([...args, ...homes], { home: dir, db: join(dir, 'index.sqlite') });
/** `secrets --json` over both homes, read by both tests. */
let listing: CliResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-secrets-wild-'));
  if (!present) return;
  // The run's index of the Claude home (built once per run); the first command indexes the Codex home beside it.
  await copyOfIndex([homes[0] as string], join(dir, 'index.sqlite'));
  listing = await cli(['secrets', '--json']);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(present)(`secrets over the wild corpora${present ? '' : ' (skipped: ../shared is not present)'}`, () => {
  it('lists each file:line:rule once, and only values that look like secrets', async () => {
    expect(listing.code, listing.stderr).toBe(0);
    const out = JSON.parse(listing.stdout) as SecretsJson;
    const places = out.sessions.flatMap((s) => s.findings.map((f) => `${f.file}:${f.line}:${f.rule}`));
    expect(places.length).toBe(new Set(places).size);
    expect(out.total).toBe(places.length);
    // Before: 113 findings at 56 places, all but 6 of them placeholders (`Token: "source-token"`, `CHANGE_ME`,
    // `phc_development_key`, `postgres://user:pass@…`). Left: a random `SecretKey` in an appsettings.json read five
    // times, and a random database password.
    expect(out.sessions.map((s) => [s.sessionId.slice(0, 8), s.findings.length])).toEqual([
      ['019c6a7c', 5],
      ['c91f9f5a', 1],
    ]);
    expect(new Set(places.map((p) => p.split(':').at(-1)))).toEqual(new Set(['json-secret-field']));
  });

  it('the sessions list counts what secrets lists (its red badge)', async () => {
    const listed = JSON.parse(listing.stdout) as SecretsJson;
    const r = await cli(['sessions', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const badges = (JSON.parse(r.stdout) as SessionsJson).sessions
      .filter((s) => s.secrets > 0)
      .map((s) => [s.id, s.secrets]);
    expect(Object.fromEntries(badges)).toEqual(
      Object.fromEntries(listed.sessions.map((s) => [s.sessionRef, s.findings.length])),
    );
  });
});
