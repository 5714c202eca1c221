import { type Dirent, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { NotTranscriptError } from '../errors.js';
import type { AgentId } from '../model/agent.js';
import type { ParseIssue } from '../model/issue.js';
import { foldersToAsk, HOME_DEPTH, partlySearched } from './home-search.js';
import { type ListedFolder, listFolder, noteFolder, readFolder, unreadableFolder } from './listed-folders.js';
import { findInHead } from './read-head.js';
import { adoptResumeWarmups } from './resume-warmups.js';
import { statOrUndefined, statRoot } from './stat.js';
import { isTranscriptEntry } from './transcript-entry.js';

/** A transcript file found on disk. */
export interface DiscoveredFile {
  readonly path: string;
  /** The agent that wrote the file: its adapter reads it (`adapterForFile`). */
  readonly agent: AgentId;
  /** Folder under projects/ (or the folder holding a loose file). */
  readonly projectDir: string;
  readonly role: 'main' | 'subagent';
  /** Session id: the file name for main files; the parent session for subagent files when known. */
  readonly sessionId: string | undefined;
  /** Subagent id from `agent-<id>.jsonl`. */
  readonly agentId: string | undefined;
  /** `agent-<id>.meta.json` beside a subagent file, when present. */
  readonly metaPath: string | undefined;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  /**
   * true: a headless run's output (`io/headless.ts`, a CI job's artifact), not the agent's transcript of the session:
   * an index counts its session only while it holds no transcript of the same session.
   */
  readonly headless?: boolean;
}

export interface DiscoverOptions {
  /**
   * A session id already known for a flat `agent-*.jsonl` file (2.0.28–2.1.1 layout) with this inode, e.g. from
   * an index. Saves opening the file to read its first record; return undefined when unknown.
   */
  readonly knownSessionId?: (path: string, ino: number) => string | undefined;
  /**
   * Whether a folder is or holds another agent's home (`discoverAll` found one there): such a folder is no Claude
   * project folder, and its own `.jsonl` files are no sessions, as for a folder that holds Claude homes.
   */
  readonly holdsHome?: (dir: string) => boolean;
  /**
   * The Claude homes below the one folder given, when `discoverAll`'s search for every agent's homes has found them:
   * that folder is not searched again (a second search would list the same folders, and those of the other agents'
   * homes, which the first leaves: a Codex home's day folders cut it short).
   */
  readonly claudeHomes?: readonly string[];
}

export interface Discovery {
  readonly files: readonly DiscoveredFile[];
  readonly issues: readonly ParseIssue[];
  /**
   * Every folder whose listing (or a look for a name in it) decided which files were found, with its mtime taken
   * before: while each still has that mtime, the same discovery finds the same files (their sizes aside).
   */
  readonly folders: readonly ListedFolder[];
}

/** Files grouped per session: the main file (when present) and its subagent files. */
export interface SessionFiles {
  readonly sessionId: string;
  readonly projectDir: string;
  readonly main: DiscoveredFile | undefined;
  readonly subagents: readonly DiscoveredFile[];
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** The Claude home: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. Pass env and home dir in (core has no process). */
export function defaultClaudeHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const configured = env.CLAUDE_CONFIG_DIR;
  return configured !== undefined && configured !== '' ? configured : join(homeDir, '.claude');
}

/** At most this long (ms) between two turns of the event loop while folders are scanned. */
const YIELD_MS = 20;

/**
 * A pause that lets the event loop turn when `YIELD_MS` have passed since the last one. Discovery's reads are
 * synchronous (cheaper than thread-pool round trips): a server indexing in the background still answers meanwhile.
 */
function pacer(): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last <= YIELD_MS) return undefined;
    return new Promise((resolvePause) =>
      setImmediate(() => {
        last = performance.now();
        resolvePause();
      }),
    );
  };
}

/** The agent whose files `discoverFiles` finds: Claude Code's layout is the one read when no adapter claims a path. */
export const DISCOVERED_AGENT: AgentId = 'claude';

/**
 * Find every session and subagent file under the given paths: a Claude home (with `projects/`), a projects
 * folder, one project folder, or `.jsonl` files. Subagent files are found in every layout: `agent-*.jsonl`
 * beside the session (2.0.28–2.1.1) and `<session>/subagents/**\/agent-*.jsonl` (2.1.2+).
 * @throws PathNotFoundError when a path does not exist; NotTranscriptError for a file that is not `.jsonl`.
 */
export async function discoverFiles(paths: readonly string[], options: DiscoverOptions = {}): Promise<Discovery> {
  const files = new Map<string, DiscoveredFile>();
  const issues: ParseIssue[] = [];
  const folders: ListedFolder[] = [];
  for (const input of paths) {
    const path = resolve(input);
    const info = await statRoot(input, path);
    if (info.isFile()) {
      if (!path.endsWith('.jsonl')) throw new NotTranscriptError(input);
      const file = await describeFile(path, projectDirOfFile(path), undefined, options);
      if (file) files.set(file.path, file);
      continue;
    }
    const pause = pacer();
    for (const projectDir of projectDirsOf(path, folders, issues, options)) {
      for (const file of await scanProjectDir(projectDir, issues, options, folders, pause)) files.set(file.path, file);
    }
  }
  // A folder under two of the paths (a home and one of its projects) is reported once.
  const reported = new Set<string>();
  const once = issues.filter(
    (i) => !reported.has(`${i.code}\u0000${i.file}`) && reported.add(`${i.code}\u0000${i.file}`),
  );
  return { files: [...files.values()].sort((a, b) => byLocale(a.path, b.path)), issues: once, folders };
}

/**
 * The folders to scan under a path. A Claude `projects/` folder (a home's, or one given by that name) is always read
 * as a folder of project folders: a stray `.jsonl` in it does not make it one project folder (which would hide every
 * real one); it is scanned as well, so that such a file is indexed as the loose transcript it is.
 */
function projectDirsOf(
  dir: string,
  folders: ListedFolder[],
  issues: ParseIssue[],
  found: Pick<DiscoverOptions, 'holdsHome' | 'claudeHomes'>,
  isProjects = basename(dir) === 'projects',
): string[] {
  // The homes found apply to the folder given, not to those below it.
  const { claudeHomes, ...below } = found;
  const holdsHome = found.holdsHome ?? (() => false);
  const entries = readFolder(dir, folders, issues) ?? [];
  if (entries.some((e) => e.isDirectory() && e.name === 'projects')) {
    return projectDirsOf(join(dir, 'projects'), folders, issues, below, true);
  }
  if (!isProjects) {
    const project = !holdsHome(dir) && isProjectDir(dir, entries, folders);
    // A folder that holds homes (a backup of `.claude`, copies from several machines, a folder of versions) is read
    // as those homes, its own `.jsonl` files (a manifest's, a log's) are no sessions of them. One level down when
    // the folder is a project folder; else as far as any agent's homes are searched for (`foldersToAsk`), or as
    // `discoverAll`'s search found them.
    const homes =
      !project && claudeHomes !== undefined ? claudeHomes : homesUnder(dir, project ? 1 : HOME_DEPTH, folders, issues);
    if (homes.length > 0) return homes.flatMap((home) => projectDirsOf(home, folders, issues, below));
    if (project) return [dir];
  }
  // A session folder (`<session>/subagents/…`) passed on its own belongs to its project folder.
  if (!isProjects && entries.some((e) => e.isDirectory() && e.name === 'subagents')) return [dirname(dir)];
  const dirs: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const child = join(dir, entry.name);
    if (holdsHome(child)) continue;
    const childEntries = readFolder(child, folders, undefined);
    // A folder that cannot be listed (chmod 000) is kept, so scanning it reports it as unreadable.
    if (childEntries === undefined || isProjectDir(child, childEntries, folders, issues)) dirs.push(child);
  }
  // Loose transcripts beside the project folders: found as if given one by one (or, with none, a projects folder
  // of loose copies is the one project folder it was before).
  if (isProjects && (dirs.length === 0 ? isProjectDir(dir, entries, folders) : hasTranscript(entries))) dirs.push(dir);
  return dirs;
}

/**
 * The homes (folders with a `projects/` folder, `.claude` among them) below a folder, `depth` levels down at most.
 * Each folder looked into is noted (`folders`): a `projects/` made in one later changes its mtime. A search cut short
 * (`MAX_FOLDERS`) says so in `issues`.
 */
function homesUnder(dir: string, depth: number, folders: ListedFolder[], issues: ParseIssue[]): string[] {
  const homes: string[] = [];
  const search = foldersToAsk(dir, depth);
  let step = search.next();
  while (step.done !== true) {
    noteFolder(step.value, folders);
    const isHome = isClaudeHome(step.value);
    if (isHome) homes.push(step.value);
    step = search.next(isHome);
  }
  if (step.value) issues.push(partlySearched(dir));
  return homes;
}

/** Whether a folder is a Claude home: it has a `projects/` folder. */
export function isClaudeHome(dir: string): boolean {
  return isFolder(join(dir, 'projects'));
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Whether a folder holds a transcript: a `.jsonl` entry that is no folder (a link, or a FIFO reported when scanned). */
function hasTranscript(entries: readonly Dirent[]): boolean {
  return entries.some((e) => !e.isDirectory() && e.name.endsWith('.jsonl'));
}

/**
 * A project folder holds session files, or at least one `<session>/subagents/` folder: a session whose main file
 * is gone (or was never copied) still has its subagents, and they are shown as a session. (Each folder looked into
 * is noted: a `subagents/` made there later changes its mtime.) A folder that cannot be looked into goes to `issues`
 * when given (a folder of `projects/`, whose sessions it may hide; not `projects/` itself, whose project folders
 * that cannot be listed are reported when they are scanned).
 */
function isProjectDir(
  dir: string,
  entries: readonly Dirent[],
  folders: ListedFolder[],
  issues?: ParseIssue[],
): boolean {
  if (hasTranscript(entries)) return true;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const sessionDir = join(dir, entry.name);
    noteFolder(sessionDir, folders);
    try {
      if (statSync(join(sessionDir, 'subagents'), { throwIfNoEntry: false })?.isDirectory()) return true;
    } catch (error) {
      issues?.push(unreadableFolder(sessionDir, error));
    }
  }
  return false;
}

async function scanProjectDir(
  projectDir: string,
  issues: ParseIssue[],
  options: DiscoverOptions,
  folders: ListedFolder[],
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<DiscoveredFile[]> {
  const out: DiscoveredFile[] = [];
  let entries: Dirent[];
  try {
    entries = listFolder(projectDir, folders);
  } catch (error) {
    issues.push(unreadableFolder(projectDir, error));
    return out;
  }
  for (const entry of entries) {
    const paused = pause();
    if (paused !== undefined) await paused;
    const path = childPath(projectDir, entry.name);
    if (!entry.isDirectory() && entry.name.endsWith('.jsonl')) {
      const file = isTranscriptEntry(path, entry, issues)
        ? await describeFile(path, projectDir, undefined, options)
        : undefined;
      if (file) out.push(file);
    } else if (entry.isDirectory()) {
      // A folder named like a transcript is said to be one, and looked into as any folder.
      if (entry.name.endsWith('.jsonl')) isTranscriptEntry(path, entry, issues);
      // A session folder (or any other): a `subagents/` made in it later changes its mtime.
      noteFolder(path, folders);
      const subagentsDir = join(path, 'subagents');
      for (const agentPath of findAgentFiles(subagentsDir, folders, issues)) {
        const file = await describeFile(agentPath, projectDir, entry.name, options);
        if (file) out.push(file);
      }
    }
  }
  return adoptResumeWarmups(out);
}

/**
 * A folder's entry by concatenation: the folder is already a resolved path and the name one entry, and a warm
 * refresh builds one path per transcript (`join` normalises each again).
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/**
 * One collator for sorting paths (as `localeCompare` does, without building one per comparison), built on first use:
 * building it is slow enough to matter to a command answered from a warm index, which never needs it.
 */
let collator: Intl.Collator | undefined;
function byLocale(a: string, b: string): number {
  collator ??= new Intl.Collator();
  return collator.compare(a, b);
}

/** `agent-*.jsonl` under a `subagents/` folder, at any depth (workflows nest them); each folder is noted. */
function findAgentFiles(dir: string, folders: ListedFolder[], issues: ParseIssue[]): string[] {
  const out: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readFolder(folder, folders, issues) ?? []) {
      const path = childPath(folder, entry.name);
      if (entry.isDirectory()) {
        if (AGENT_FILE.test(entry.name)) isTranscriptEntry(path, entry, issues);
        walk(path);
      } else if (AGENT_FILE.test(entry.name) && isTranscriptEntry(path, entry, issues)) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

async function describeFile(
  path: string,
  projectDir: string,
  parentSession: string | undefined,
  options: DiscoverOptions,
): Promise<DiscoveredFile | undefined> {
  // Synchronous stats: a warm refresh stats every file, and thread-pool round trips cost more than the stats.
  const info = statOrUndefined(path);
  if (info === undefined) return undefined;
  const name = basename(path);
  const agentMatch = AGENT_FILE.exec(name);
  const metaPath = agentMatch ? path.replace(/\.jsonl$/, '.meta.json') : undefined;
  const hasMeta = metaPath !== undefined && statOrUndefined(metaPath) !== undefined;
  // An agent file's parent session: its `<session>/subagents/` folder, else its first record's sessionId.
  const sessionId = agentMatch
    ? (parentSession ??
      sessionIdInsideAgentPath(path) ??
      options.knownSessionId?.(path, info.ino) ??
      (await firstSessionId(path)))
    : name.replace(/\.jsonl$/, '');
  return {
    path,
    agent: DISCOVERED_AGENT,
    projectDir,
    role: agentMatch ? 'subagent' : 'main',
    sessionId,
    agentId: agentMatch?.[1],
    metaPath: hasMeta ? metaPath : undefined,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ino: info.ino,
  };
}

/**
 * The project folder of a transcript file: its folder, or for `<session>/subagents/**\/agent-*.jsonl` the parent of
 * the session folder.
 */
export function projectDirOfFile(path: string): string {
  if (!AGENT_FILE.test(basename(path))) return dirname(path);
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'subagents') return dirname(dirname(dir));
  }
  return dirname(path);
}

function sessionIdInsideAgentPath(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  return parts[parts.lastIndexOf('subagents') - 1] || undefined; // none before index 0
}

/** The `sessionId` of the first record that has one (reads at most 256 KiB). */
export async function firstSessionId(path: string): Promise<string | undefined> {
  return findInHead(path, 256 * 1024, /"sessionId":"([^"\n]+)"/)?.[1];
}

/** Group discovered files into sessions. */
export function groupSessions(files: readonly DiscoveredFile[]): SessionFiles[] {
  const groups = new Map<
    string,
    { sessionId: string; projectDir: string; main?: DiscoveredFile; subagents: DiscoveredFile[] }
  >();
  for (const file of files) {
    const sessionId = file.sessionId ?? `orphan-${file.agentId ?? basename(file.path)}`;
    const key = `${file.projectDir}\u0000${sessionId}`;
    let group = groups.get(key);
    if (!group) {
      group = { sessionId, projectDir: file.projectDir, subagents: [] };
      groups.set(key, group);
    }
    if (file.role === 'main') group.main = file;
    else group.subagents.push(file);
  }
  return [...groups.values()].map((g) => ({
    sessionId: g.sessionId,
    projectDir: g.projectDir,
    main: g.main,
    subagents: g.subagents,
  }));
}
