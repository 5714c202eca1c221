/**
 * The sessions this laptop asked a team server to forget (`push --forget`), by their uid there: a later push leaves
 * them out, so a forgotten session is not sent again by the next `push --watch` round or `serve --push`. A uid is the
 * HMAC of the person's salt (hash.ts), so one list serves every server and person this laptop pushes to.
 * `push --unforget` takes one off the list. Kept beside the index, written whole and renamed over.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

const FORMAT = 1;

export class ForgottenSessions {
  private uids = new Set<string>();
  /** The file's identity when last read (`stampOf`; '' when it was not there). */
  private readStamp = '';

  private constructor(private readonly path: string | undefined) {}

  /** The list kept at `path` (none kept when undefined); a missing file is an empty list. */
  static load(path: string | undefined): ForgottenSessions {
    const list = new ForgottenSessions(path);
    list.reload();
    return list;
  }

  /**
   * Reads the file again when it changed since (another process forgot a session: a `push --watch` or `serve --push`
   * running for days takes it at its next round).
   */
  reload(): void {
    if (this.path === undefined) return;
    const stamp = stampOf(this.path);
    if (stamp === this.readStamp) return;
    this.uids = stamp === '' ? new Set() : readList(this.path);
    this.readStamp = stamp;
  }

  has(uid: string): boolean {
    return this.uids.has(uid);
  }

  /**
   * Adds (or with `forgotten` false, takes off) the uids, and writes the list: read again and written under the
   * list's lock, so that two processes forgetting at once each keep the other's.
   */
  mark(uids: readonly string[], forgotten = true): void {
    const path = this.path;
    const change = () => {
      this.reload();
      for (const uid of uids) {
        if (forgotten) this.uids.add(uid);
        else this.uids.delete(uid);
      }
    };
    if (path === undefined) {
      change();
      return;
    }
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    withLock(`${path}.lock`, () => {
      change();
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify({ format: FORMAT, uids: [...this.uids].sort() })}\n`, { mode: 0o600 });
      renameSync(temp, path);
      this.readStamp = stampOf(path);
    });
  }
}

/**
 * A lock older than this is one its process left behind (killed inside the few milliseconds it is held), when its
 * holder cannot be asked (`holderIsGone`).
 */
const STALE_LOCK_MS = 10_000;
const LOCK_RETRY_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** This process's `processSpace`, read once (the lock wait asks for it every few milliseconds). */
let spaceOfThisProcess: string | undefined;

/**
 * Where a process id means one process: this machine's name (a list on a disk machines share), and on Linux its pid
 * namespace (a container given the host's name counts its processes apart) and boot.
 */
function processSpace(): string {
  spaceOfThisProcess ??= readProcessSpace();
  return spaceOfThisProcess;
}

function readProcessSpace(): string {
  const parts = [hostname()];
  for (const read of [() => readlinkSync('/proc/self/ns/pid'), () => readFileSync('/proc/sys/kernel/random/boot_id')]) {
    try {
      parts.push(String(read()).trim());
    } catch {
      // not Linux: the machine's name alone
    }
  }
  return parts.join('/');
}

/** What a lock file holds: its holder, `<process space> <pid>`. Exported for the tests. */
export const lockHolderText = (pid = process.pid) => `${processSpace()} ${pid}\n`;

/**
 * Runs `work` holding the lock file `lock` (created exclusively, naming its holder; removed after). Waits while
 * another process holds it (this thread sleeps: the lock is held for the few milliseconds of a write); takes over a
 * lock whose holder is gone (a process of this machine that no longer runs) or, when that cannot be told, one left
 * past `STALE_LOCK_MS`. So a `serve` finding a lock a killed `push --forget` left does not stop for 10 seconds.
 */
function withLock(lock: string, work: () => void): void {
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, lockHolderText());
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = ageOf(lock);
      if (holderIsGone(lock) || (age !== undefined && age > STALE_LOCK_MS)) {
        // Left by a process that died holding it. (Two waiters seeing it at once may both remove it, the second
        // the first's new lock: possible only after such a death, and costing at most one lost mark.)
        removeIfThere(lock);
        continue;
      }
      Atomics.wait(sleeper, 0, 0, LOCK_RETRY_MS);
    }
  }
  try {
    work();
  } finally {
    removeIfThere(lock);
  }
}

/**
 * Whether the lock names a process of this machine (and pid namespace, and boot) that no longer runs. False when it
 * cannot be told: another machine's or container's, a lock still being written (empty), or a holder that runs (or
 * that this user may not signal).
 */
function holderIsGone(lock: string): boolean {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return false;
  }
  const match = /^(.+) (\d+)\n$/.exec(text);
  if (match === null || match[1] !== processSpace()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function ageOf(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A list this version cannot read: said plainly (the push stops rather than resend what was taken back). */
export class ForgottenListError extends Error {
  // the CLI's exit 4, as for any file it cannot read
  readonly code = 'UNREADABLE_FILE';
}

/** Which version of the file is there: each write is a new file renamed over (a new inode), '' when none is. */
function stampOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

// Unlike a cache, this list may not be lost quietly: a push would then send what its person took back.
function readList(path: string): Set<string> {
  let parsed: { format?: unknown; uids?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; uids?: unknown };
  } catch (error) {
    throw new ForgottenListError(
      `${path}: cannot read the sessions forgotten on team servers (${(error as Error).message})`,
    );
  }
  if (parsed.format !== FORMAT || !Array.isArray(parsed.uids)) {
    throw new ForgottenListError(`${path}: not a list of forgotten sessions this agentdash can read`);
  }
  return new Set(parsed.uids.filter((uid): uid is string => typeof uid === 'string'));
}
