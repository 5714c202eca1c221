import { isRecord, num, str } from '../../../internal/guards.js';
import { lineCount, patchCounts } from '../../../model/build-typed-result.js';
import { parseUnifiedDiff } from '../../../results/unified-diff.js';
import type { GeminiResultContext } from './context.js';

const TRUNCATED = /Status: Showing lines (\d+)-(\d+) of (\d+) total lines\./;
const CONTENT_MARK = '--- FILE CONTENT (truncated) ---\n';

/** The file a call names: `file_path` (current), `absolute_path` and `path` (older versions). */
export function filePathOf(args: Readonly<Record<string, unknown>>): string | undefined {
  return str(args.file_path) ?? str(args.absolute_path) ?? str(args.path);
}

/** `read_file` (and `read_many_files`) → `read`: the text shown to the model, the window and the total. */
export function readData(ctx: GeminiResultContext): unknown {
  const image = ctx.images[0];
  const many = Array.isArray(ctx.args.paths)
    ? ctx.args.paths.filter((p): p is string => typeof p === 'string')
    : undefined;
  const filePath = filePathOf(ctx.args) ?? many?.join(', ') ?? '';
  if (image !== undefined && ctx.text.trim() === '') {
    return { variant: 'image', filePath, mediaType: image.mediaType };
  }
  const window = TRUNCATED.exec(ctx.text);
  const markAt = ctx.text.indexOf(CONTENT_MARK);
  const content = window && markAt >= 0 ? ctx.text.slice(markAt + CONTENT_MARK.length) : ctx.text;
  const requested =
    num(ctx.args.start_line) ?? (num(ctx.args.offset) === undefined ? undefined : (num(ctx.args.offset) ?? 0) + 1);
  return {
    variant: 'text',
    filePath,
    content,
    startLine: window ? Number(window[1]) : (requested ?? 1),
    numLines: lineCount(content),
    totalLines: window ? Number(window[3]) : undefined,
    truncated: window ? true : undefined,
  };
}

interface FileDiffDisplay {
  readonly fileDiff: string | undefined;
  readonly originalContent: string | null | undefined;
  readonly isNewFile: boolean | undefined;
  readonly added: number | undefined;
  readonly removed: number | undefined;
}

/** 0.61's `resultDisplay` of a write or an edit: the unified diff, the file before, whether it was new. */
function fileDiffOf(display: unknown): FileDiffDisplay | undefined {
  if (!isRecord(display) || typeof display.fileDiff !== 'string') return undefined;
  const stat = isRecord(display.diffStat) ? display.diffStat : {};
  return {
    fileDiff: display.fileDiff,
    originalContent: display.originalContent === null ? null : str(display.originalContent),
    isNewFile: typeof display.isNewFile === 'boolean' ? display.isNewFile : undefined,
    added: num(stat.model_added_lines),
    removed: num(stat.model_removed_lines),
  };
}

function patchOf(diff: FileDiffDisplay | undefined) {
  const structuredPatch = diff?.fileDiff === undefined ? [] : parseUnifiedDiff(diff.fileDiff);
  const counts = diff === undefined ? undefined : patchCounts(structuredPatch);
  return {
    structuredPatch,
    linesAdded: counts?.linesAdded ?? diff?.added,
    linesRemoved: counts?.linesRemoved ?? diff?.removed,
  };
}

/** `write_file` → `write`: created or overwritten, with the diff when the client recorded one (0.61). */
export function writeData(ctx: GeminiResultContext): unknown {
  const diff = fileDiffOf(ctx.display);
  const created = diff?.isNewFile ?? /\bcreated\b/i.test(ctx.text);
  const content = str(ctx.args.content);
  const patch = patchOf(diff);
  return {
    filePath: filePathOf(ctx.args) ?? '',
    operation: created ? 'create' : 'update',
    content,
    ...patch,
    linesAdded: patch.linesAdded ?? (created && content !== undefined ? lineCount(content) : undefined),
    originalFile: diff?.originalContent,
  };
}

/**
 * `replace` → `edit`: the strings replaced, with the diff when the client recorded one (0.61). A replace with an
 * empty `old_string` on a file that did not exist creates it: "Created new file: … with provided content." (0.20
 * and 0.61 corpus, `edit`; the display is then "Created <name>", not a diff), said as `operation: 'create'` with
 * the new text's lines added, as a Write that creates a file.
 */
export function editData(ctx: GeminiResultContext): unknown {
  const diff = fileDiffOf(ctx.display);
  const expected = num(ctx.args.expected_replacements);
  const newString = str(ctx.args.new_string);
  const operation =
    diff?.isNewFile === true || /^Created new file: /.test(ctx.text) || str(ctx.args.old_string) === ''
      ? 'create'
      : diff?.isNewFile === false || /^Successfully modified file: /.test(ctx.text)
        ? 'update'
        : undefined;
  const patch = patchOf(diff);
  const created = operation === 'create' && newString !== undefined;
  return {
    filePath: filePathOf(ctx.args) ?? '',
    operation,
    oldString: str(ctx.args.old_string),
    newString,
    replaceAll: ctx.args.allow_multiple === true || (expected !== undefined && expected > 1) ? true : undefined,
    originalFile: diff?.originalContent ?? (operation === 'create' ? null : undefined),
    ...patch,
    linesAdded: patch.linesAdded ?? (created ? lineCount(newString) : undefined),
    linesRemoved: patch.linesRemoved ?? (created ? 0 : undefined),
  };
}

/** `list_directory` → `ls`: the listing as the model saw it. */
export function lsData(ctx: GeminiResultContext): unknown {
  return { listing: ctx.text };
}
