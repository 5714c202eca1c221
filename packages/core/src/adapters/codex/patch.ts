import { isRecord, str } from '../../internal/guards.js';
import { patchCounts } from '../../model/build-typed-result.js';
import { type Hunk, parseUnifiedDiff } from '../../results/unified-diff.js';

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

/**
 * The files of a patch with the hunks the tool applied, line numbers included: `patch_apply_end.changes` is
 * `{<absolute path>: {type: "update", unified_diff: "@@ -18,3 +18,3 @@…"}}` (added and deleted files carry their
 * `content`, no diff). A file keeps its written hunks when no change is its own (paths in the patch may be relative
 * to the working directory) or its diff has no hunk. Counts stay the written patch's.
 */
export function withAppliedHunks(files: readonly PatchFile[], applyEnd: unknown): PatchFile[] {
  const changes = isRecord(applyEnd) && isRecord(applyEnd.changes) ? Object.entries(applyEnd.changes) : [];
  return files.map((file) => {
    if (file.operation !== 'update' && file.operation !== 'move') return file;
    const own = changes.filter(([path]) => path === file.path || path.endsWith(`/${file.path}`));
    const change = own.length === 1 ? own[0]?.[1] : undefined;
    const diff = isRecord(change) && change.type === 'update' ? str(change.unified_diff) : undefined;
    const hunks = diff === undefined ? [] : parseUnifiedDiff(diff);
    return hunks.length === 0 ? file : { ...file, hunks };
  });
}

/** `apply_patch <<'PATCH'` (or `<<PATCH`, `<<"PATCH"`, `<<-PATCH`) opening a script's first line. */
const HEREDOC_HEAD = /^\s*apply_patch\s*<<-?\s*(['"]?)([A-Za-z_]\w*)\1[ \t]*\n/;

/**
 * The patch of a shell command whose script is `apply_patch` fed its patch by a here-document, and nothing else (an
 * argument vector `[shell, -c|-lc, script]` or a string). Its end marker may be missing: the shell then reads the
 * document to the script's end, as 23 of 219 such calls in the wild did.
 */
function heredocPatchOf(command: unknown): string | undefined {
  const script =
    typeof command === 'string'
      ? command
      : Array.isArray(command) && command.length === 3 && /^-l?c$/.test(String(command[1]))
        ? command[2]
        : undefined;
  if (typeof script !== 'string') return undefined;
  const head = HEREDOC_HEAD.exec(script);
  if (head === null) return undefined;
  const lines = script.slice(head[0].length).split('\n');
  const end = lines.findIndex((line) => line.trim() === head[2]);
  if (end === -1) return lines.join('\n').trimEnd();
  return lines.slice(end + 1).every((line) => line.trim() === '') ? lines.slice(0, end).join('\n') : undefined;
}

/**
 * The patch text of a call that applies one: `apply_patch`'s freeform input; (0.50 and earlier) the shell tool run
 * as `{"command": ["apply_patch", "<patch>"]}`; or a shell command whose script is `apply_patch` with its patch in a
 * here-document (`bash -lc "apply_patch <<'PATCH' …"`, as the model often wrote it in 0.3x–0.5x). Undefined for any
 * other call.
 */
export function patchTextOf(canonicalName: string, input: Readonly<Record<string, unknown>>): string | undefined {
  const command = input.command;
  if (Array.isArray(command) && command[0] === 'apply_patch' && typeof command[1] === 'string') return command[1];
  const heredoc = heredocPatchOf(command) ?? heredocPatchOf(input.cmd);
  if (heredoc !== undefined) return heredoc;
  if (canonicalName !== 'apply_patch') return undefined;
  return typeof input.input === 'string' ? input.input : '';
}
