/**
 * Where `export -o` may not write: over a transcript AgentDash reads (one overwritten with an export can no longer be
 * resumed), into a folder the agents keep their transcripts in (AgentDash never writes there: a file put there would
 * be read as a transcript, and kept by the archive once deleted), nor a transcript's name (`.jsonl`, …) into a
 * folder the index was built from by name (a Claude home's backup), nor over its own index (whose archive may hold the
 * only copy of transcripts the agent deleted), whatever name reaches them (a relative path, a symbolic link to the
 * file or to a folder on its way).
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';

/** The path as the file system names it: symbolic links followed as far as the path exists. */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : resolve(realPath(parent), basename(absolute));
  }
}

/** The inode of an existing file, undefined for anything else (a missing path, one through a file: not written). */
function inodeOf(path: string): number | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })?.ino;
  } catch {
    return undefined;
  }
}

/** Whether the path is a folder (a named root may be one transcript's file). */
function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

export interface ReadPlaces {
  /** The index database's path (its `-wal`, `-shm` and `-journal` files go with it). */
  readonly dbPath: string;
  /** The paths, as stored, of the transcripts the index reads with this inode (`AgentIndex.filesWithInode`). */
  filesWithInode(ino: number): readonly string[];
  /**
   * The folders the agents keep their transcripts in: each agent's own home (`~/.claude`, …). Not the folders of the
   * transcripts indexed elsewhere: a file named as a PATH from `~/Downloads` would make the person's whole home one.
   */
  readonly homes: readonly string[];
  /**
   * The paths the index was built from by name (`AgentIndex.namedRoots`: a backup of a Claude home, another
   * machine's, an Aider repository): a transcript's name inside one that is a folder (`TRANSCRIPT_NAME`) would be read
   * as a transcript by the next command.
   */
  readonly roots: readonly string[];
}

/**
 * The names a folder's discovery takes for transcripts: `.jsonl` (Claude Code, Codex, Copilot, Qwen), Gemini's chat
 * files (`session-….json`) and Aider's history (`.aider.chat.history.md`). Another name there is the person's file.
 */
const TRANSCRIPT_NAME = /(\.jsonl|(^|[\\/])session-[^\\/]*\.json|(^|[\\/])\.aider\.chat\.history\.md)$/i;

/** Why `output` may not be written, or undefined when it may. */
export function refusedOutput(output: string, places: ReadPlaces): string | undefined {
  const path = realPath(output);
  const db = realPath(places.dbPath);
  if (['', '-wal', '-shm', '-journal'].some((suffix) => path === `${db}${suffix}`)) return 'it is the index database';
  // An existing file is the transcript of any stored path that names it, through whatever links.
  const ino = inodeOf(path);
  if (ino !== undefined && places.filesWithInode(ino).some((stored) => realPath(stored) === path)) {
    return 'it is a transcript AgentDash reads';
  }
  // as the file system compares names: without case on macOS and Windows (`~/.CLAUDE` is `~/.claude` there)
  const fold = (name: string) =>
    process.platform === 'darwin' || process.platform === 'win32' ? name.toLowerCase() : name;
  const home = places.homes.map(realPath).find((folder) => under(folder, path, fold));
  if (home !== undefined)
    return `it is in ${home}, where an agent keeps its transcripts (AgentDash never writes there)`;
  const root = TRANSCRIPT_NAME.test(path)
    ? places.roots
        .filter(isFolder)
        .map(realPath)
        .find((folder) => under(folder, path, fold))
    : undefined;
  if (root !== undefined) {
    return `it is in ${root}, which the index reads transcripts from: the next command would read the export as one`;
  }
  return undefined;
}

/** Whether `path` is inside `folder`, names compared through `fold`. */
function under(folder: string, path: string, fold: (name: string) => string): boolean {
  return fold(path).startsWith(fold(folder.endsWith(sep) ? folder : folder + sep));
}
