import type { Dirent } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../../internal/guards.js';
import { type ListedFolder, listFolder } from '../../io/listed-folders.js';

const SNIFF_BYTES = 64 * 1024;
/** Keys only a Claude Code record has at its top level (with a string `type`). */
const CLAUDE_KEYS = ['uuid', 'parentUuid', 'leafUuid', 'sessionId', 'messageId'] as const;

/**
 * Whether a path is Claude Code's: a home (with `projects/`), a projects, project or session folder whose first
 * transcript (two folder levels down at most) is Claude's, or a `.jsonl` file whose first line is a Claude record.
 * A folder that only holds homes further down (a backup of `.claude` beside `.gemini`) is no one's: core's
 * `discoverAll` searches it for every agent's homes. Never throws.
 */
export async function recognizesClaudePath(path: string, folders?: ListedFolder[]): Promise<boolean> {
  try {
    const info = await stat(path);
    if (info.isFile()) return path.endsWith('.jsonl') && isClaudeLine(await firstLine(path));
    if (!info.isDirectory()) return false;
    const entries = listFolder(path, folders);
    if (entries.some((e) => e.isDirectory() && e.name === 'projects')) return true;
    const sample = firstTranscript(path, 2, folders, entries);
    return sample !== undefined && isClaudeLine(await firstLine(sample));
  } catch {
    return false;
  }
}

/** The first `.jsonl` file within `depth` folder levels (files before folders, in name order); folders noted. */
function firstTranscript(
  dir: string,
  depth: number,
  folders: ListedFolder[] | undefined,
  listed?: Dirent[],
): string | undefined {
  let entries: Dirent[];
  try {
    entries = listed ?? listFolder(dir, folders);
  } catch {
    return undefined;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const file = entries.find((e) => e.isFile() && e.name.endsWith('.jsonl'));
  if (file) return join(dir, file.name);
  if (depth === 0) return undefined;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const found = firstTranscript(join(dir, entry.name), depth - 1, folders);
    if (found) return found;
  }
  return undefined;
}

async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = new TextDecoder().decode(buffer.subarray(0, bytesRead)).replace(/^\uFEFF/, '');
    return text.split('\n').find((line) => line.trim() !== '') ?? '';
  } finally {
    await handle.close();
  }
}

/** A Claude record: a string `type` and one of its envelope keys at the top level (a long line: in its prefix). */
export function isClaudeLine(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Longer than the sniffed prefix: look at the prefix's text instead.
    return (
      /"type"\s*:\s*"/.test(line) &&
      CLAUDE_KEYS.some((key) => line.includes(`"${key}":`)) &&
      !line.includes('"payload":')
    );
  }
  return (
    isRecord(value) &&
    typeof value.type === 'string' &&
    CLAUDE_KEYS.some((key) => key in value) &&
    // Qwen Code's records have Claude Code's keys, and Gemini's message (`parts`, not `content`)
    !(isRecord(value.message) && 'parts' in value.message && !('content' in value.message))
  );
}
