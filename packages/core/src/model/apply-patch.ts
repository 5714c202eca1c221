/**
 * Codex's `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`, its files and hunks as written), read where it
 * is written: an `apply_patch` call's input, a shell here-document, a Codex `exec` script's string (the Files page
 * counts the files of each). Several envelopes one after another read as one. Browser-safe.
 * @module
 */

import type { Hunk } from '../results/unified-diff.js';
import { patchCounts } from './build-typed-result.js';

/** A hunk as the agent wrote it: no line numbers, only the text after its `@@`, when any. */
interface WrittenHunk {
  readonly header?: string;
  readonly lines: readonly string[];
}

/**
 * One file of a Codex `apply_patch` envelope, with its hunks as written (context lines carry no line numbers), or
 * as applied (with their line numbers) when the tool reported its unified diff.
 */
export interface PatchFile {
  readonly path: string;
  readonly operation: 'add' | 'update' | 'delete' | 'move';
  readonly movePath?: string;
  readonly hunks: readonly (WrittenHunk | Hunk)[];
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

interface MutableFile {
  path: string;
  operation: PatchFile['operation'];
  movePath?: string;
  hunks: { header?: string; lines: string[] }[];
}

const FILE_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/**
 * Parse `*** Begin Patch … *** End Patch` text into files and hunks. Lines outside a file section are ignored;
 * an unparsable patch gives no files (the call is still shown with its raw input). Never throws.
 */
export function parseApplyPatch(text: string): PatchFile[] {
  const files: MutableFile[] = [];
  let current: MutableFile | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const header = FILE_HEADER.exec(line);
    if (header) {
      const kind = header[1];
      current = {
        path: (header[2] ?? '').trim(),
        operation: kind === 'Add' ? 'add' : kind === 'Delete' ? 'delete' : 'update',
        hunks: [],
      };
      files.push(current);
      continue;
    }
    if (current === undefined || line.startsWith('*** Begin Patch') || line.startsWith('*** End Patch')) continue;
    if (line.startsWith('*** Move to: ')) {
      current.operation = 'move';
      current.movePath = line.slice('*** Move to: '.length).trim();
      continue;
    }
    if (line === '*** End of File') continue;
    if (line.startsWith('@@')) {
      const rest = line.slice(2).trim();
      current.hunks.push(rest === '' ? { lines: [] } : { header: rest, lines: [] });
      continue;
    }
    if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) {
      let hunk = current.hunks.at(-1);
      if (hunk === undefined) {
        hunk = { lines: [] };
        current.hunks.push(hunk);
      }
      hunk.lines.push(line);
    } else if (line === '' && current.hunks.length > 0) {
      // An empty context line written without its leading space.
      current.hunks.at(-1)?.lines.push(' ');
    }
  }
  return files.map((file) => {
    const hunks = file.hunks.map((h) => ({ ...h, lines: trimTrailingBlank(h.lines) }));
    return { ...file, hunks, ...patchCounts(file.hunks) };
  });
}

function trimTrailingBlank(lines: readonly string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out.at(-1) === ' ') out.pop();
  return out;
}
