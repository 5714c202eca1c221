/**
 * The in-process CLI of the `cli*.test.ts` files: a temporary folder per file (made before its tests, removed after),
 * an index database in it, and an empty home folder so that no test reads the machine's own Claude home.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CliIo } from '../src/io.js';
import { run } from '../src/run.js';
import type { CliResult } from './harness.js';

export interface CliSandbox {
  /** The file's temporary folder. */
  readonly dir: string;
  /** The index database every `cli` call uses (`--db`). */
  readonly db: string;
  /** An empty folder: the home directory and `CLAUDE_CONFIG_DIR` unless a test sets another. */
  readonly emptyHome: string;
  /** `agentdash ARGS --db DB` in-process, output captured (a terminal when `tty`), 120 columns. */
  cli(args: readonly string[], options?: { env?: Record<string, string>; tty?: boolean }): Promise<CliResult>;
  /** The JSON a successful run printed (the test fails with its stderr otherwise). */
  json<T>(result: CliResult): T;
}

/** A sandbox made in this file's `beforeAll` and removed in its `afterAll`. */
export function cliSandbox(prefix = 'agentdash-cli-'): CliSandbox {
  const paths = { dir: '', db: '', emptyHome: '' };
  beforeAll(() => {
    paths.dir = mkdtempSync(join(tmpdir(), prefix));
    paths.db = join(paths.dir, 'index.sqlite');
    paths.emptyHome = join(paths.dir, 'empty-home');
    mkdirSync(paths.emptyHome);
  });
  afterAll(() => {
    if (paths.dir) rmSync(paths.dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return paths.dir;
    },
    get db() {
      return paths.db;
    },
    get emptyHome() {
      return paths.emptyHome;
    },
    async cli(args, options = {}) {
      let stdout = '';
      let stderr = '';
      const io: CliIo = {
        stdout: { write: (s: string) => (stdout += s), isTTY: options.tty ?? false, columns: 120 },
        stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
        env: { CLAUDE_CONFIG_DIR: paths.emptyHome, ...options.env },
        homedir: paths.emptyHome,
        now: Date.now,
      };
      const code = await run([...args, '--db', paths.db], io);
      return { code, stdout, stderr };
    },
    json<T>(result: CliResult): T {
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as T;
    },
  };
}
