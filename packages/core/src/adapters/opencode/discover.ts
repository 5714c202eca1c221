import { basename, dirname, join, resolve } from 'node:path';
import { messageOf } from '../../errors.js';
import type { DiscoveredFile, DiscoverOptions, Discovery } from '../../io/discover.js';
import type { ListedFolder } from '../../io/listed-folders.js';
import { statOrUndefined } from '../../io/stat.js';
import type { ParseIssue } from '../../model/issue.js';
import {
  headerOf,
  type OpenCodeSource,
  openSource,
  type SourceReader,
  type SourceSession,
  snapshotFolderOf,
  sourceOfFolder,
  syncSnapshot,
} from './snapshot.js';

const DB = 'opencode.db';
const STORAGE = 'storage';

/** OpenCode's data folder: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` (on every platform). */
export function defaultOpenCodeHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const xdg = env.XDG_DATA_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homeDir, '.local', 'share'), 'opencode');
}

/** The sources under a path: its `opencode.db`, its `storage/` JSON tree, or the path itself when it is one. */
export function sourcesAt(path: string): OpenCodeSource[] {
  const full = resolve(path);
  const info = statOrUndefined(full);
  if (info === undefined) return [];
  if (info.isFile()) return basename(full) === DB ? [{ kind: 'db', path: full }] : [];
  if (basename(full) === STORAGE && statOrUndefined(join(full, 'session'))?.isDirectory()) {
    return [{ kind: 'storage', path: full }];
  }
  const out: OpenCodeSource[] = [];
  if (statOrUndefined(join(full, DB))?.isFile()) out.push({ kind: 'db', path: join(full, DB) });
  if (statOrUndefined(join(full, STORAGE, 'session'))?.isDirectory()) {
    out.push({ kind: 'storage', path: join(full, STORAGE) });
  }
  // A snapshot folder of AgentDash's own (the index refreshes a session's folder): its source.
  const source = sourceOfFolder(full);
  if (source !== undefined) out.push(source);
  return out;
}

/** True for an OpenCode data folder, its `opencode.db`, its `storage/` tree, or a snapshot (folder or file). */
export async function recognizesOpenCodePath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const full = resolve(path);
  if (statOrUndefined(full)?.isFile() && full.endsWith('.jsonl')) return headerOf(full) !== undefined;
  const sources = sourcesAt(full);
  for (const source of sources) noteSource(source, folders);
  return sources.length > 0;
}

/**
 * The files and folders whose mtimes tell that a source may have changed: the data folder, the database and its
 * WAL (written on every commit), or the JSON tree's folders. A warm index compares them before it skips discovery.
 */
function noteSource(source: OpenCodeSource, folders: ListedFolder[] | undefined): void {
  if (folders === undefined) return;
  const paths =
    source.kind === 'db'
      ? [dirname(source.path), source.path, `${source.path}-wal`]
      : [source.path, join(source.path, 'session'), join(source.path, 'message'), join(source.path, 'part')];
  for (const path of paths) {
    const info = statOrUndefined(path);
    if (info !== undefined) folders.push([path, info.mtimeMs]);
  }
}

/**
 * Every session of the sources under `root` (a data folder, `opencode.db`, `storage/`, a snapshot folder or file),
 * each as its snapshot file (`snapshot.ts`), brought up to date first; its project folder is its source. A subagent's session (`parent_id` set) is a
 * subagent file of its top session. A source that cannot be read (a locked or damaged database) is an issue.
 */
export async function discoverOpenCodeFiles(root: string, _options: DiscoverOptions = {}): Promise<Discovery> {
  const full = resolve(root);
  const issues: ParseIssue[] = [];
  const folders: ListedFolder[] = [];
  const files: DiscoveredFile[] = [];
  const snapshotFile = statOrUndefined(full)?.isFile() && full.endsWith('.jsonl') ? full : undefined;
  const sources = snapshotFile !== undefined ? sourcesAt(dirname(snapshotFile)) : sourcesAt(full);
  for (const source of sources) {
    noteSource(source, folders);
    let reader: SourceReader;
    let sessions: SourceSession[];
    try {
      reader = openSource(source);
    } catch (error) {
      issues.push({ code: 'unreadable_file', file: source.path, line: 0, message: messageOf(error) });
      continue;
    }
    try {
      sessions = reader.sessions();
    } catch (error) {
      reader.close();
      issues.push({ code: 'unreadable_file', file: source.path, line: 0, message: messageOf(error) });
      continue;
    }
    const folder = snapshotFolderOf(source);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    for (const session of sessions) {
      let path: string;
      try {
        path = syncSnapshot(source, reader, session, folder);
      } catch (error) {
        issues.push({ code: 'unreadable_file', file: source.path, line: 0, message: messageOf(error) });
        continue;
      }
      if (snapshotFile !== undefined && path !== snapshotFile) continue;
      const info = statOrUndefined(path);
      if (info === undefined) continue;
      const top = topOf(session, byId);
      const sub = top.id !== session.id;
      files.push({
        path,
        agent: 'opencode',
        // The source (the database, or storage/): under the data folder, so the index counts the snapshot as the
        // data folder's (`files.home`, and a PATH of the data folder selects it).
        projectDir: source.path,
        role: sub ? 'subagent' : 'main',
        sessionId: top.id,
        agentId: sub ? session.id : undefined,
        metaPath: undefined,
        size: info.size,
        mtimeMs: info.mtimeMs,
        ino: info.ino,
      });
    }
    reader.close();
  }
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), issues, folders };
}

/** The session at the top of a subagent chain (itself when it has no parent). */
function topOf(session: SourceSession, byId: ReadonlyMap<string, SourceSession>): SourceSession {
  let current = session;
  const seen = new Set<string>();
  while (current.parentId !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    const parent = byId.get(current.parentId);
    if (parent === undefined) break;
    current = parent;
  }
  return current;
}
