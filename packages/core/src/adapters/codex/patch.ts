import { isRecord, str } from '../../internal/guards.js';
import type { PatchFile } from '../../model/apply-patch.js';
import { parseUnifiedDiff } from '../../results/unified-diff.js';

/**
 * The files of a patch with the hunks the tool applied, line numbers included: `patch_apply_end.changes` is
 * `{<absolute path>: {type: "update", unified_diff: "@@ -18,3 +18,3 @@…"}}` (added and deleted files carry their
 * `content`, no diff). A file keeps its written hunks when no change is its own (paths in the patch may be relative
 * to the working directory) or its diff has no hunk. Counts stay the written patch's.
 */
export function withAppliedHunks(files: readonly PatchFile[], applyEnd: unknown): PatchFile[] {
  const changes = isRecord(applyEnd) && isRecord(applyEnd.changes) ? Object.entries(applyEnd.changes) : [];
  return files.map((file) => {
    const own = changes.filter(([path]) => path === file.path || path.endsWith(`/${file.path}`));
    const change = own.length === 1 ? own[0]?.[1] : undefined;
    if (file.operation === 'delete') return withDeletedLines(file, change);
    if (file.operation !== 'update' && file.operation !== 'move') return file;
    const diff = isRecord(change) && change.type === 'update' ? str(change.unified_diff) : undefined;
    const hunks = diff === undefined ? [] : parseUnifiedDiff(diff);
    return hunks.length === 0 ? file : { ...file, hunks };
  });
}

/** The lines of a deleted file a patch's hunk shows. */
const DELETED_LINES_SHOWN = 2000;

/**
 * A deleted file with the lines it held, when the tool reported them (`{"type": "delete", "content": …}`): the
 * envelope's `*** Delete File:` names the file only, and the deletion read "+0 −0".
 */
function withDeletedLines(file: PatchFile, change: unknown): PatchFile {
  const content = isRecord(change) && change.type === 'delete' ? str(change.content) : undefined;
  if (content === undefined || content === '') return file;
  const lines = content.replace(/\r?\n$/, '').split(/\r?\n/);
  // its count whole; its first lines only (a lockfile deleted held tens of thousands)
  const shown = lines.slice(0, DELETED_LINES_SHOWN).map((l) => `-${l}`);
  const hunk = { oldStart: 1, oldLines: shown.length, newStart: 0, newLines: 0, lines: shown };
  return { ...file, hunks: [hunk], linesRemoved: lines.length };
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
