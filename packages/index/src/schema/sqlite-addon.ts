/**
 * Opening a SQLite database through the better-sqlite3 addon, and what to tell a user whose addon this Node.js cannot
 * load. The addon is compiled at install for one Node.js ABI (`NODE_MODULE_VERSION`: 115 for Node 20, 127 for 22, 137
 * for 24, 147 for 26). After switching to another Node.js major (nvm, a system upgrade) loading it fails with
 * `ERR_DLOPEN_FAILED`: "was compiled against a different Node.js version" the first time in a process, "Module did not
 * self-register" on every later try. An install whose build step did not run (`--ignore-scripts`, no compiler) fails
 * in the `bindings` finder instead ("Could not locate the bindings file"). Each is the user's installation, not a bug
 * in AgentDash: the remedy is `npm rebuild` with the Node.js they now run.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentDashError, messageOf } from '@agentdash/core/base';
import type Database from 'better-sqlite3';

/** A native addon this Node.js cannot load (built for another Node.js version, or never built). */
export class NativeAddonError extends AgentDashError {
  /** The folder to run `npm rebuild` in, when known. */
  readonly rebuildIn: string | undefined;
  constructor(message: string, rebuildIn: string | undefined, options?: ErrorOptions) {
    super('NATIVE_ADDON', message, options);
    this.rebuildIn = rebuildIn;
  }
}

/**
 * better-sqlite3's compiled addon, named: its default finder (the `bindings` package) reads the call stack and tries
 * a dozen paths first, a cost every command feels. Only the usual place of a release build; else the default finder.
 */
function releaseAddon(): { nativeBinding?: string } {
  try {
    const lib = fileURLToPath(import.meta.resolve('better-sqlite3'));
    const build = join(dirname(lib), '..', 'build');
    const release = join(build, 'Release', 'better_sqlite3.node');
    // The finder prefers build/better_sqlite3.node and a Debug build: then it decides.
    if (existsSync(release) && !existsSync(join(build, 'Debug')) && !existsSync(join(build, 'better_sqlite3.node'))) {
      return { nativeBinding: release };
    }
  } catch {
    // Not resolvable as a file: the default finder.
  }
  return {};
}

let addon: { nativeBinding?: string } | undefined;
/**
 * better-sqlite3's class, loaded on first use: a program that opens no database (`--help`) does not load the addon,
 * and CommonJS's `require` loads it without the ES module loader's pass over each of its files for named exports.
 */
let DatabaseClass: typeof Database | undefined;

/**
 * better-sqlite3's class for an addon found where a release build puts it. The bundle (scripts/bundle-cli.mjs)
 * takes this one require's JavaScript in (fourteen CommonJS files less to find, read and wrap at every open); the
 * bundle script looks for this exact line.
 */
const releaseClass = () => createRequire(import.meta.url)('better-sqlite3') as typeof Database;

/**
 * better-sqlite3's class as installed, for the package's own addon finder (a Debug build, another layout), which
 * looks for the addon from its caller's file: it must be the package's, never the bundle's.
 */
const installedClass = () => createRequire(import.meta.url)('better-sqlite3') as typeof Database;

/**
 * `new Database(path, options)`, an addon that cannot be loaded reported as a `NativeAddonError`. The addon is
 * loaded from where a release build puts it (`releaseAddon`) unless the options name one.
 */
export function openDatabase(path: string, options?: Database.Options): Database.Database {
  try {
    addon ??= releaseAddon();
    DatabaseClass ??= addon.nativeBinding !== undefined ? releaseClass() : installedClass();
    return new DatabaseClass(path, { ...addon, ...options });
  } catch (error) {
    throw nativeAddonError(error) ?? error;
  }
}

/**
 * The `NativeAddonError` for an error thrown while better-sqlite3 loaded its addon; undefined for any other error (a
 * path that cannot be opened, a damaged file: the caller's to report). `packageDir`: better-sqlite3's folder.
 */
export function nativeAddonError(error: unknown, packageDir = betterSqliteDir()): NativeAddonError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOf(error);
  let why: string;
  if (code === 'ERR_DLOPEN_FAILED') {
    const versions = /NODE_MODULE_VERSION (\d+)\b[\s\S]*NODE_MODULE_VERSION (\d+)\b/.exec(message);
    if (versions !== null) {
      why = `was built for another Node.js version (NODE_MODULE_VERSION ${versions[1]}; Node.js ${process.version} needs ${versions[2]})`;
    } else if (message.includes('did not self-register')) {
      why = `was built for another Node.js version than this one (${process.version})`;
    } else {
      why = `cannot be loaded by Node.js ${process.version} (${firstLine(message)})`;
    }
  } else if (message.startsWith('Could not locate the bindings file')) {
    why = 'is not built (its install step did not run, or failed)';
  } else {
    return undefined;
  }
  const rebuildIn = packageDir === null ? undefined : installFolder(packageDir);
  const where = rebuildIn ?? 'the folder agentdash is installed in';
  return new NativeAddonError(
    `the SQLite addon (better-sqlite3) ${why}: run \`npm rebuild\` in ${where} with the Node.js you run agentdash with`,
    rebuildIn,
    { cause: error },
  );
}

/** The folder whose `node_modules` holds the package at `packageDir` (where `npm rebuild` rebuilds it). */
export function installFolder(packageDir: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = packageDir.lastIndexOf(marker);
  return at < 0 ? packageDir : packageDir.slice(0, at) || sep;
}

function betterSqliteDir(): string | null {
  try {
    // lib/index.js of the package.
    return dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3')));
  } catch {
    return null;
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
