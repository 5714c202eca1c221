/**
 * A command's arguments are checked before anything is read or written: a bad option is said in one line (exit 2),
 * with no index database made, no transcript indexed and no note of the homes or samples it would have read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { runCli } from '../test/harness.js';
import { ExitCode } from './errors.js';

const sb = cliSandbox('agentdash-args-first-');

const badArguments: readonly (readonly string[])[] = [
  ['sessions', '--since', 'yesterday'],
  ['sessions', '--json', '--since', 'yesterday'],
  ['sessions', '--limit=-3'],
  ['secrets', '--until', 'someday'],
  ['stats', '--since', 'yesterday'],
  ['usage', '--since', 'yesterday'],
  ['usage', 'session', '--until', 'someday'],
  ['search', 'anything', '--since', 'yesterday'],
  ['search', 'anything', '--limit=0'],
  ['archive', 'bogus'],
  ['push', 'http://127.0.0.1:9', '--token', 't', '--share', 'everything'],
  ['push', 'http://127.0.0.1:9', '--token', 't', '--forget', 'a', '--unforget', 'b'],
  ['serve', '--host', '0.0.0.0', '--no-otlp'],
  ['serve', '--push', 'http://127.0.0.1:9', '--push-token', 't', '--share', 'everything', '--no-otlp'],
];

describe('arguments checked before any indexing', () => {
  it.each(badArguments.map((argv) => [argv.join(' '), argv] as const))(
    '%s: exit 2, one line, no database',
    async (_, argv) => {
      // With no PATH and no agent home: the bundled samples would be read (and indexed) after the check.
      const db = join(sb.dir, `${argv.join('-').replace(/[^a-z0-9]+/gi, '-')}.sqlite`);
      const r = await runCli(argv, { home: sb.emptyHome, db, env: { CLAUDE_CONFIG_DIR: sb.emptyHome } });
      expect([r.code, r.stderr.split('\n').length, existsSync(db)], r.stderr).toEqual([
        ExitCode.badArguments,
        2,
        false,
      ]);
    },
  );
});
