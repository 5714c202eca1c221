import { basename, dirname, join, resolve } from 'node:path';
import { messageOf } from '../../errors.js';
import { isRecord, str } from '../../internal/guards.js';
import type { DiscoveredFile, DiscoverOptions, Discovery } from '../../io/discover.js';
import { discoverHeadless, type HeadlessStart } from '../../io/headless.js';
import { isClaudeProjectOrSessionFolder } from '../../io/home-search.js';
import { type ListedFolder, listFolder } from '../../io/listed-folders.js';
import { readHead } from '../../io/read-head.js';
import { statOrUndefined } from '../../io/stat.js';
import { isTranscriptEntry } from '../../io/transcript-entry.js';
import type { ParseIssue } from '../../model/issue.js';

/** A home's folder levels above its rollouts: `sessions/YYYY/MM/DD/`. */
const HOME_LEVELS = 4;

/** `rollout-<local time>-<session id>.jsonl`. */
const ROLLOUT_FILE = /^rollout-.*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The Codex home: `$CODEX_HOME`, else `~/.codex`. */
export function defaultCodexHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const configured = env.CODEX_HOME;
  return configured !== undefined && configured !== '' ? configured : join(homeDir, '.codex');
}

/** `codex exec --json` output begins with `{"type":"thread.started","thread_id":<session id>}`. */
export const codexExecStart: HeadlessStart = (first) =>
  first.type === 'thread.started' ? str(first.thread_id) : undefined;

export const codexExecWriter = { id: 'codex', headlessStart: codexExecStart } as const;

export function isRolloutFile(path: string): boolean {
  return ROLLOUT_FILE.test(basename(path));
}

/** The session id in a rollout file's name. */
export function sessionIdOfRollout(path: string): string | undefined {
  return ROLLOUT_FILE.exec(basename(path))?.[1];
}

/**
 * True when a path is Codex's: a rollout file, a Codex home (rollouts under `sessions/YYYY/MM/DD/` or
 * `archived_sessions/`), or a folder inside one, found within `HOME_LEVELS` folder levels. A folder that only holds
 * a home further down (a backup beside other agents' homes) is not Codex's: the search for homes below a folder no
 * adapter claims finds it there (core's `discoverAll`), with the other agents' homes beside it.
 */
export async function recognizesCodexPath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const info = statOrUndefined(path);
  if (info === undefined) return false;
  if (info.isFile()) return isRolloutFile(path);
  return findRollouts(resolve(path), HOME_LEVELS, 1, undefined, folders).length > 0 || (await isEmptiedHome(path));
}

/** A line of Codex's `history.jsonl`: `{"session_id": …, "ts": <seconds>, "text": …}` (Claude Code's has `display`). */
const HISTORY_LINE = /^\{"session_id":"[^"]+","ts":\d+,"text":/;

/**
 * A Codex home whose rollouts are all gone (deleted by the person or a cleanup), known by its `history.jsonl`: its
 * sessions live on in the index's archive, and the home is no Claude project folder whose `.jsonl` files are sessions
 * (its history read as a Claude session of nine unknown records, "history", beside the archived ones).
 */
async function isEmptiedHome(dir: string): Promise<boolean> {
  const first = await readHead(join(dir, 'history.jsonl'), 4096, { firstLine: true });
  return first !== undefined && HISTORY_LINE.test(first);
}

/**
 * Every rollout file under the given paths. A rollout's project folder is the folder that holds its date folders
 * (`sessions/`), so a parent and its spawned agents share it; a spawned or review agent's file is a subagent file of
 * its parent session when its first line names the parent (or, for a file read before, the session id an index
 * knows for it: `options.knownSessionId`, which saves opening it).
 */
export async function discoverCodexFiles(paths: readonly string[], options: DiscoverOptions = {}): Promise<Discovery> {
  const issues: ParseIssue[] = [];
  const folders: ListedFolder[] = [];
  const files = new Map<string, DiscoveredFile>();
  for (const input of paths) {
    const path = resolve(input);
    const info = statOrUndefined(path);
    if (info === undefined) continue;
    const found = info.isFile()
      ? isRolloutFile(path)
        ? [path]
        : []
      : findRollouts(path, 6, Number.POSITIVE_INFINITY, issues, folders);
    for (const file of found) {
      const described = await describeRollout(file, options);
      if (described) files.set(described.path, described);
    }
    // `codex exec --json` output kept by a CI job: the file itself, or the files directly in the folder.
    for (const file of (await discoverHeadless(path, [codexExecWriter], folders)).files) files.set(file.path, file);
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    issues,
    folders,
  };
}

async function describeRollout(path: string, options: DiscoverOptions): Promise<DiscoveredFile | undefined> {
  const info = statOrUndefined(path);
  if (info === undefined) return undefined;
  const ownId = sessionIdOfRollout(path);
  // A rollout is its own session, or a subagent file of the parent session its first line names (the client writes
  // that line whole as it creates the file, so a known id stays right while the file is the same).
  const known = options.knownSessionId?.(path, info.ino);
  const parent = known === undefined ? await parentThreadOf(path) : known === ownId ? undefined : known;
  return {
    path,
    projectDir: sessionsRootOf(path),
    role: parent === undefined ? 'main' : 'subagent',
    sessionId: parent ?? ownId,
    agentId: parent === undefined ? undefined : ownId,
    metaPath: undefined,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ino: info.ino,
    agent: 'codex',
  };
}

/** The folder above `YYYY/MM/DD/`, else the file's folder. */
export function sessionsRootOf(path: string): string {
  const dir = dirname(path);
  const parts = dir.split(/[\\/]/);
  const [y, m, d] = parts.slice(-3);
  if (
    y !== undefined &&
    m !== undefined &&
    d !== undefined &&
    /^\d{4}$/.test(y) &&
    /^\d{2}$/.test(m) &&
    /^\d{2}$/.test(d)
  ) {
    return dirname(dirname(dirname(dir)));
  }
  return dir;
}

/** The parent thread a spawned or review agent's first line names (`forked_from_id`, `parent_thread_id`). */
async function parentThreadOf(path: string): Promise<string | undefined> {
  const line = await readHead(path, 512 * 1024, { firstLine: true });
  if (line === undefined || !line.includes('"session_meta"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    const payload = isRecord(parsed) && isRecord(parsed.payload) ? parsed.payload : {};
    const source = isRecord(payload.source) ? payload.source : {};
    const spawn =
      isRecord(source.subagent) && isRecord(source.subagent.thread_spawn) ? source.subagent.thread_spawn : {};
    return str(payload.forked_from_id) ?? str(spawn.parent_thread_id) ?? str(payload.parent_thread_id);
  } catch {
    return undefined;
  }
}

/**
 * Folders the walk never enters: hidden ones, `node_modules`, and Claude Code's project folders (encoded paths, with a
 * leading `-`) and session folders (a session id): Codex writes rollouts under `sessions/YYYY/MM/DD/`, and asking
 * whether a Claude home is also a Codex one must not read all of it (10,000 files: a quarter of a second).
 */
const skippedFolder = (name: string): boolean =>
  name.startsWith('.') || name === 'node_modules' || isClaudeProjectOrSessionFolder(name);

/**
 * Rollout files below `dir`, at most `depth` folders down, stopping after `limit` files; each folder listed is noted
 * in `folders` when given.
 */
function findRollouts(
  dir: string,
  depth: number,
  limit: number,
  issues?: ParseIssue[],
  folders?: ListedFolder[],
): string[] {
  const out: string[] = [];
  const walk = (folder: string, left: number): void => {
    if (out.length >= limit) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = listFolder(folder, folders);
    } catch (error) {
      issues?.push({
        code: 'unreadable_file',
        file: folder,
        line: 0,
        message: messageOf(error),
      });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (out.length >= limit) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (ROLLOUT_FILE.test(entry.name)) isTranscriptEntry(path, entry, issues);
        if (left > 0 && !skippedFolder(entry.name)) walk(path, left - 1);
      } else if (ROLLOUT_FILE.test(entry.name) && isTranscriptEntry(path, entry, issues)) out.push(path);
    }
  };
  walk(dir, depth);
  return out;
}
