/**
 * The sessions this laptop asked a team server to forget (`push --forget`), by their uid there: a later push leaves
 * them out, so a forgotten session is not sent again by the next `push --watch` round or `serve --push`. A uid is the
 * HMAC of the person's salt (hash.ts), so one list serves every server and person this laptop pushes to.
 * `push --unforget` takes one off the list. Kept beside the index, written whole and renamed over.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const FORMAT = 1;

export class ForgottenSessions {
  private readonly uids = new Set<string>();

  private constructor(private readonly path: string | undefined) {}

  /** The list kept at `path` (none kept when undefined); a missing file is an empty list. */
  static load(path: string | undefined): ForgottenSessions {
    const list = new ForgottenSessions(path);
    if (path === undefined) return list;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return list;
      throw error;
    }
    // Unlike a cache, this list may not be lost quietly: a push would then send what its person took back.
    const parsed = JSON.parse(text) as { format?: unknown; uids?: unknown };
    if (parsed.format !== FORMAT || !Array.isArray(parsed.uids)) {
      throw new Error(`${path}: not a list of forgotten sessions this agentdash can read`);
    }
    for (const uid of parsed.uids) if (typeof uid === 'string') list.uids.add(uid);
    return list;
  }

  has(uid: string): boolean {
    return this.uids.has(uid);
  }

  /** Adds (or with `forgotten` false, takes off) the uids, and writes the list. */
  mark(uids: readonly string[], forgotten = true): void {
    for (const uid of uids) {
      if (forgotten) this.uids.add(uid);
      else this.uids.delete(uid);
    }
    if (this.path === undefined) return;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ format: FORMAT, uids: [...this.uids].sort() })}\n`, { mode: 0o600 });
    renameSync(temp, this.path);
  }
}
