/**
 * Where `export -o` may not write. AgentDash reads the agents' transcripts and never writes where the agents keep them
 * (a transcript overwritten with an export can no longer be resumed), nor over its own index (whose archive may hold
 * the only copy of transcripts the agent deleted).
 * @module
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { isUnder } from '@agentdash/core/base';

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

export interface ReadPlaces {
  /** The index database's path (its `-wal`, `-shm` and `-journal` files go with it). */
  readonly dbPath: string;
  /** Whether a path is a transcript the index reads. */
  isTranscript(path: string): boolean;
  /** Folders of agent transcripts (the exported session's). */
  readonly transcriptFolders: readonly string[];
}

/** Why `output` may not be written, or undefined when it may. */
export function refusedOutput(output: string, places: ReadPlaces): string | undefined {
  const path = realPath(output);
  const db = realPath(places.dbPath);
  if (['', '-wal', '-shm', '-journal'].some((suffix) => path === `${db}${suffix}`)) return 'it is the index database';
  if (places.isTranscript(path) || places.isTranscript(resolve(output))) return 'it is a transcript AgentDash reads';
  if (places.transcriptFolders.some((folder) => isUnder(path, realPath(folder)))) {
    return 'it is in a folder of agent transcripts (AgentDash never writes there)';
  }
  return undefined;
}
