/**
 * What a file call changed or asked to change, as unified-diff text, for the text exports (the dashboard draws the
 * same hunks). Browser-safe.
 * @module
 */

import type { ToolCall } from '../model/tool-call.js';
import type { TypedResultOf } from '../model/typed-result.js';
import { replacementLines } from './line-diff.js';

/** A hunk of any file result: a patch's (its numbers optional) or a structured patch's (a patch hunk with them). */
type Hunk = TypedResultOf<'patch'>['data']['files'][number]['hunks'][number];

/** `@@ -1,3 +1,4 @@` when the hunk has its numbers, else `@@` and its header (a Codex patch's context line). */
function hunkHead(hunk: Hunk): string {
  const numbered = hunk.oldStart !== undefined && hunk.newStart !== undefined;
  const range = numbered ? ` -${hunk.oldStart},${hunk.oldLines ?? 0} +${hunk.newStart},${hunk.newLines ?? 0} @@` : '';
  return `@@${range}${hunk.header ? ` ${hunk.header}` : ''}`;
}

function hunksText(hunks: readonly Hunk[]): string[] {
  return hunks.flatMap((hunk) => [hunkHead(hunk), ...hunk.lines]);
}

/**
 * A replacement asked for: the lines it keeps, removes and adds (`replacementLines`; where in the file is not known:
 * a bare `@@`); text written to a new file, as added lines from its first.
 */
function replacement(oldText: string, newText: string): string[] {
  const lines = replacementLines(oldText, newText);
  return [oldText === '' ? `@@ -0,0 +1,${lines.length} @@` : '@@', ...lines];
}

/**
 * The diff of a write, an edit, a multi-edit or a patch: the hunks its result recorded when it succeeded with any,
 * else what its input asked for (old and new strings; a write's content as added lines; a patch's text as written),
 * so a failed or unanswered edit shows what was tried. `undefined` for a call that changes no file, or asked for nothing to show.
 */
export function callChangeDiff(call: Pick<ToolCall, 'status' | 'result' | 'typedInput'>): string | undefined {
  const typed = call.status === 'ok' ? call.result?.typed : undefined;
  let lines: string[] = [];
  if (typed?.kind === 'patch') {
    // a file without hunks (a deletion; `codex exec` records paths only) is named by the call's output
    lines = typed.data.files.flatMap((file) =>
      file.hunks.length === 0
        ? []
        : [`*** ${file.operation} ${file.path}${file.movePath ? ` → ${file.movePath}` : ''}`, ...hunksText(file.hunks)],
    );
  } else if (typed?.kind === 'write' || typed?.kind === 'edit' || typed?.kind === 'multi-edit') {
    // a new file's patch is empty or all of it added: its content says the same
    const created = typed.kind === 'write' && typed.data.operation === 'create';
    if (!created) lines = hunksText(typed.data.structuredPatch);
  }
  const input = call.typedInput ?? {};
  const content = typed?.kind === 'write' ? (typed.data.content ?? input.content) : input.content;
  if (lines.length === 0) {
    if (input.edits !== undefined && input.edits.length > 0) {
      lines = input.edits.flatMap((edit) => replacement(edit.oldString, edit.newString));
    } else if (input.oldString !== undefined || input.newString !== undefined) {
      lines = replacement(input.oldString ?? '', input.newString ?? '');
    } else if (content !== undefined && content !== '') {
      lines = replacement('', content.replace(/\n$/, ''));
    } else if (input.patch !== undefined) {
      // a patch that did not apply: as the call wrote it
      lines = input.patch.replace(/\n+$/, '').split('\n');
    }
  }
  return lines.some((line) => !line.startsWith('@@')) ? lines.join('\n') : undefined;
}
