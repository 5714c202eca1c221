import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import type { CliResult } from '../test/harness.js';
import { startServe, waitReady } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';

const here = dirname(fileURLToPath(import.meta.url));

const sb = cliSandbox();
const { cli } = sb;

const bin = resolve(here, '../bin/agentdash.js');
const built = resolve(here, '../dist/bin.js');
const bundled = resolve(here, '../bundle/bin.js');
// Says "skipped" only when it is.
const suiteTitle2 = !existsSync(built) ? 'built bin (skipped: run `npx tsc -b packages/cli` first)' : 'built bin';
describe.skipIf(!existsSync(built))(suiteTitle2, () => {
  it('is the package bin, runs as a program with a shebang and exits with the right code', async () => {
    const pkg = JSON.parse(readFileSync(resolve(here, '../package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    expect(resolve(here, '..', pkg.bin.agentdash ?? '')).toBe(bin);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'bundle', 'dist', 'samples']));
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    expect(readFileSync(built, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const result = await new Promise<CliResult>((done) => {
      const child = spawn(process.execPath, [bin, 'sessions', join(sb.dir, 'nope'), '--db', sb.db], { stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
    expect(result.code).toBe(ExitCode.badPath);
    expect(result.stderr).toContain('agentdash:');
  });

  // Linux's /dev/full: every write fails with ENOSPC, as on a full disk
  it.skipIf(!existsSync('/dev/full'))(
    'says output it cannot write in one line, exit 3 (was an uncaught ENOSPC and its stack, exit 1)',
    async () => {
      const { openSync } = await import('node:fs');
      const runFull = (args: readonly string[]) =>
        new Promise<CliResult>((done) => {
          const full = openSync('/dev/full', 'w');
          const argv = [bin, ...args, SAMPLES_HOME, '--db', sb.db];
          const child = spawn(process.execPath, argv, { stdio: ['ignore', full, 'pipe'] });
          let stderr = '';
          child.stderr?.on('data', (d) => (stderr += d));
          child.on('close', (code) => done({ code: code ?? -1, stdout: '', stderr }));
        });
      const text = await runFull(['sessions']);
      expect([text.code, text.stderr.split('\n').filter((l) => !l.includes('bundled sample'))]).toEqual([
        ExitCode.badPath,
        ['agentdash: cannot write the standard output: no space left on device', ''],
      ]);
      const json = await runFull(['stats', '--json']);
      expect(json.code).toBe(ExitCode.badPath);
      expect(JSON.parse(json.stderr.trim().split('\n').at(-1) ?? '')).toEqual({
        error: { kind: 'bad-path', message: 'cannot write the standard output: no space left on device', exitCode: 3 },
      });
    },
  );

  it('uses the bundle only when it is newer than the build of every workspace bundled in it', () => {
    // The launcher compares the bundle's time with each bundled workspace's `tsc -b` stamp: a workspace missing from its
    // list (api was) leaves a stale bundle running after that workspace is rebuilt alone.
    const listed = /\[((?:'[a-z]+',?\s*)+)\]\.map\(/.exec(readFileSync(bin, 'utf8'))?.[1];
    expect(listed).toBeDefined();
    const names = [...(listed ?? '').matchAll(/'([a-z]+)'/g)].map((m) => m[1]);
    const packages = resolve(here, '../..');
    const bundledWorkspaces = new Set<string>();
    const visit = (name: string) => {
      if (bundledWorkspaces.has(name)) return;
      bundledWorkspaces.add(name);
      const pkg = JSON.parse(readFileSync(join(packages, name, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(pkg.dependencies ?? {}))
        if (dep.startsWith('@agentdash/')) visit(dep.slice('@agentdash/'.length));
    };
    visit('cli');
    expect([...names].sort()).toEqual([...bundledWorkspaces].sort());
  });

  it.skipIf(!existsSync(bundled))(
    'is the bundle when built, with the worker scripts where its modules look for them',
    async () => {
      // The launcher runs the bundle (scripts/bundle-cli.mjs) when `npm run build` made one.
      expect(readFileSync(bin, 'utf8')).toContain("'../bundle/bin.js'");
      const { builtWorkerScript } = await import('@agentdash/index');
      for (const name of ['parse-worker.js', 'session-worker.js', 'watch-worker.js']) {
        const found = builtWorkerScript(name, pathToFileURL(bundled).href);
        expect(found && fileURLToPath(found)).toBe(join(dirname(bundled), name));
      }
      // Every module of the bundle imports only Node's built-ins, the native addon and other files of the bundle.
      const outside = new Set<string>();
      for (const name of readdirSync(dirname(bundled)).filter((n) => n.endsWith('.js'))) {
        const text = readFileSync(join(dirname(bundled), name), 'utf8');
        const specs = [
          ...text.matchAll(/^(?:import|export)\b[^;\n]*?["']([^"']+)["'];?$/gm),
          ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
        ].map((m) => m[1] ?? '');
        for (const spec of specs) {
          if (!spec.startsWith('node:') && spec !== 'better-sqlite3' && !/^\.\/[\w-]+\.js$/.test(spec))
            outside.add(spec);
        }
      }
      expect([...outside]).toEqual([]);
      // The dashboard is beside the bundle, where the server looks first (a package from the registry has no
      // packages/web).
      expect(existsSync(join(dirname(bundled), 'web', 'index.html'))).toBe(
        existsSync(resolve(here, '../../web/dist/index.html')),
      );
    },
  );

  it('serve prints the URL and answers', async () => {
    const { child, url, code } = await startServe([SAMPLES_HOME, '--no-progress'], sb.db);
    try {
      if (url === undefined) throw new Error(`serve exited with ${code}`);
      const response = await fetch(url);
      expect(response.status).toBeLessThan(500);
      // It listens before indexing, then reports the first build as ready with every file read.
      const health = await waitReady(url);
      expect(health?.index.state).toBe('ready');
      expect(health?.index.filesDone).toBe(health?.index.filesTotal);
      expect(health?.index.filesTotal).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve rejects a missing path before listening', async () => {
    const r = await cli(['serve', join(sb.dir, 'no-such-home'), '--port', '0']);
    expect(r.code).toBe(ExitCode.badPath);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no such file or directory');
  });
});
