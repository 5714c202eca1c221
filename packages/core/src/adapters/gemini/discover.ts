import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { NotTranscriptError } from '../../errors.js';
import { str } from '../../internal/guards.js';
import type { DiscoveredFile, DiscoverOptions, Discovery } from '../../io/discover.js';
import { discoverHeadless, type HeadlessStart } from '../../io/headless.js';
import { type ListedFolder, noteFolder, readFolder, unreadableFolder } from '../../io/listed-folders.js';
import { readHead } from '../../io/read-head.js';
import { statOrUndefined, statRoot } from '../../io/stat.js';
import { isTranscriptEntry } from '../../io/transcript-entry.js';
import type { ParseIssue } from '../../model/issue.js';

const SESSION_FILE = /\.jsonl?$/;
/**
 * A main session file in `chats/`: `session-<time>-<id>.json[l]` in every version seen (0.20, 0.61, the wild homes).
 * Qwen Code keeps `<id>.jsonl` in `projects/<project>/chats/`: another agent's, not Gemini's.
 */
const MAIN_FILE = /^session-.*\.jsonl?$/;

/** `gemini --output-format stream-json` output begins with `{"type":"init","session_id":…,"model":…}`. */
export const geminiStreamStart: HeadlessStart = (first) =>
  first.type === 'init' && 'model' in first ? str(first.session_id) : undefined;

export const geminiStreamWriter = { id: 'gemini', headlessStart: geminiStreamStart } as const;

/** The Gemini home: `$GEMINI_CLI_HOME/.gemini` when set (the client's own override), else `~/.gemini`. */
export function defaultGeminiHomes(env: Readonly<Record<string, string | undefined>>, homeDir: string): string[] {
  const configured = env.GEMINI_CLI_HOME;
  return [join(configured !== undefined && configured !== '' ? configured : homeDir, '.gemini')];
}

/**
 * Whether a path is a Gemini home or lies in one: a home (`tmp/<project>/chats/`), its `tmp/` folder, a project
 * folder, a `chats/` folder, or a session file in one. Never throws.
 */
export async function recognizesGemini(path: string, folders?: ListedFolder[]): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return false;
  if (info.isFile()) return isSessionPath(resolve(path));
  return chatsDirsOf(resolve(path), folders).some((chats) => holdsSessions(chats, folders));
}

/**
 * Every Gemini session file under a path (any of the folders `recognizesGemini` accepts, or one file): main files
 * `chats/session-*.json` (0.20 layout, project folder named by the SHA-256 of its path) and `chats/session-*.jsonl`
 * (0.61 layout, folder named after the project), and subagent files `chats/<parent session id>/<agent id>.jsonl`.
 * A main file's session id is its header's `sessionId`; a second main file claiming an id already taken in the same
 * folder (0.61 leaves a header-only stub when it resumes) gets `<id>@<file name>` so both stay indexed (reading a
 * stub reports it, `resume_stub`, and lists leave its empty session out). For
 * a file read before, the session id an index knows for it (`options.knownSessionId`) saves opening it.
 * @throws PathNotFoundError when the path does not exist; NotTranscriptError for a file that is not `.json[l]`.
 */
export async function discoverGemini(root: string, options: DiscoverOptions = {}): Promise<Discovery> {
  const path = resolve(root);
  const info = await statRoot(root, path);
  const issues: ParseIssue[] = [];
  const files: DiscoveredFile[] = [];
  const folders: ListedFolder[] = [];
  // `--output-format stream-json` output kept by a CI job: the file itself, or the files directly in the folder.
  const headless = await discoverHeadless(path, [geminiStreamWriter], folders);
  if (info.isFile() && headless.files.length > 0) return headless;
  files.push(...headless.files);
  if (info.isFile()) {
    if (!isSessionPath(path) && !(SESSION_FILE.test(path) && chatsDirOfFile(path) === undefined)) {
      throw new NotTranscriptError(root);
    }
    const chats = chatsDirOfFile(path);
    const subagentOf = chats !== undefined && dirname(path) !== chats ? basename(dirname(path)) : undefined;
    const file = await describe(path, chats ? dirname(chats) : dirname(path), subagentOf, options);
    if (file) files.push(file);
    return { files, issues, folders };
  }
  for (const chats of chatsDirsOf(path, folders, issues)) {
    files.push(...(await scanChats(chats, issues, options, folders)));
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, issues, folders };
}

/**
 * The `chats/` folders a folder holds or is. Each folder listed or looked into is noted in `folders`, and each that
 * cannot be, in `issues` (when given).
 */
function chatsDirsOf(dir: string, folders?: ListedFolder[], issues?: ParseIssue[]): string[] {
  if (basename(dir) === 'chats') return [dir];
  // a session's subagents' folder (`chats/<session id>/`): read with its session, as its files need it
  if (basename(dirname(dir)) === 'chats') return [dirname(dir)];
  const entries = readFolder(dir, folders, issues);
  if (entries === undefined) return [];
  if (entries.some((e) => e.isDirectory() && e.name === 'chats')) return [join(dir, 'chats')];
  const tmp = entries.some((e) => e.isDirectory() && e.name === 'tmp') ? join(dir, 'tmp') : dir;
  const out: string[] = [];
  for (const entry of tmp === dir ? entries : (readFolder(tmp, folders, issues) ?? [])) {
    if (!entry.isDirectory()) continue;
    // A `chats/` made in it later changes its mtime.
    noteFolder(join(tmp, entry.name), folders);
    const chats = join(tmp, entry.name, 'chats');
    try {
      if (statSync(chats, { throwIfNoEntry: false })?.isDirectory()) out.push(chats);
    } catch (error) {
      // The project folder cannot be looked into.
      issues?.push(unreadableFolder(join(tmp, entry.name), error));
    }
  }
  return out;
}

/** A main session file in a `chats/` folder, or a subagent's `.jsonl` one folder down. */
function isSessionPath(path: string): boolean {
  const chats = chatsDirOfFile(path);
  if (chats === undefined) return false;
  return dirname(path) === chats ? MAIN_FILE.test(basename(path)) : path.endsWith('.jsonl');
}

/**
 * Whether a `chats/` folder holds a main session file or a subagents' folder, or nothing yet (a home before its first
 * session): not only another agent's files.
 */
function holdsSessions(chats: string, folders?: ListedFolder[]): boolean {
  const entries = readFolder(chats, folders, undefined) ?? [];
  return entries.length === 0 || entries.some((e) => e.isDirectory() || MAIN_FILE.test(e.name));
}

/** The `chats/` folder holding a session file (directly, or one level down for subagents). */
function chatsDirOfFile(path: string): string | undefined {
  const parent = dirname(path);
  if (basename(parent) === 'chats') return parent;
  if (basename(dirname(parent)) === 'chats') return dirname(parent);
  return undefined;
}

async function scanChats(
  chats: string,
  issues: ParseIssue[],
  options: DiscoverOptions,
  folders: ListedFolder[],
): Promise<DiscoveredFile[]> {
  const projectDir = dirname(chats);
  const entries = readFolder(chats, folders, issues);
  if (entries === undefined) return [];
  const out: DiscoveredFile[] = [];
  const taken = new Set<string>();
  const mains = entries
    .filter((e) => MAIN_FILE.test(e.name) && isTranscriptEntry(join(chats, e.name), e, issues))
    .map((e) => e.name)
    .sort();
  for (const name of mains) {
    const file = await describe(join(chats, name), projectDir, undefined, options);
    if (file === undefined) continue;
    const id = file.sessionId ?? name;
    const unique = taken.has(id) ? `${id}@${name.replace(SESSION_FILE, '')}` : id;
    taken.add(unique);
    out.push(unique === file.sessionId ? file : { ...file, sessionId: unique });
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = join(chats, entry.name);
    for (const name of (readFolder(dir, folders, issues) ?? [])
      .filter((e) => e.name.endsWith('.jsonl') && isTranscriptEntry(join(dir, e.name), e, issues))
      .map((e) => e.name)
      .sort()) {
      const file = await describe(join(dir, name), projectDir, entry.name, options);
      if (file) out.push(file);
    }
  }
  return out;
}

async function describe(
  path: string,
  projectDir: string,
  parentSession: string | undefined,
  options: DiscoverOptions,
): Promise<DiscoveredFile | undefined> {
  const info = statOrUndefined(path);
  if (info === undefined || !info.isFile()) return undefined;
  const stem = basename(path).replace(SESSION_FILE, '');
  // The file name stands in for an id the header did not have yet (a file caught empty): look again then.
  const known = parentSession === undefined ? options.knownSessionId?.(path, info.ino) : undefined;
  return {
    path,
    agent: 'gemini',
    projectDir,
    role: parentSession === undefined ? 'main' : 'subagent',
    sessionId: parentSession ?? (known !== stem ? known : undefined) ?? (await headerSessionId(path)) ?? stem,
    agentId: parentSession === undefined ? undefined : stem,
    metaPath: undefined,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ino: info.ino,
  };
}

/** The `sessionId` at the top of a session file (its header), reading at most 64 KiB. */
export async function headerSessionId(path: string): Promise<string | undefined> {
  const text = (await readHead(path, 64 * 1024)) ?? '';
  // The header comes before any message; a message's own fields never hold "sessionId".
  return /"sessionId"\s*:\s*"([^"\\]+)"/.exec(text)?.[1];
}
