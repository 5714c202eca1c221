/** Parsers of the file tools: Read, Write, Edit, MultiEdit, NotebookEdit, LS. */
import { bool, isRecord, num, str } from '../../../../internal/guards.js';
import { lineCount, patchCounts } from '../../../../model/build-typed-result.js';
import { newlineCount } from '../../../../model/line-count.js';
import { numericRecord, numOrNull, parseNumberedLines, strArray, stripSystemReminders, tryJson } from '../text.js';
import { type DataParser, rec } from './shared.js';

export function hunks(
  value: unknown,
): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((h) => ({
    oldStart: num(h.oldStart) ?? 0,
    oldLines: num(h.oldLines) ?? 0,
    newStart: num(h.newStart) ?? 0,
    newLines: num(h.newLines) ?? 0,
    lines: strArray(h.lines) ?? [],
  }));
}

function notebookCells(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((cell) => ({
    cellId: str(cell.cell_id) ?? str(cell.cellId) ?? str(cell.id),
    cellType: str(cell.cellType) ?? str(cell.cell_type) ?? 'code',
    source: Array.isArray(cell.source) ? (strArray(cell.source) ?? []).join('') : (str(cell.source) ?? ''),
    language: str(cell.language),
    executionCount: numOrNull(cell.execution_count),
    outputs: Array.isArray(cell.outputs) ? cell.outputs : undefined,
  }));
}

/**
 * A read's counts in file lines. Claude Code counts lines as `text.split('\n')` does, so at a file's end the empty
 * text after its final newline is one more line: `"a\n"` is `numLines` 2 of `totalLines` 2, an empty file 1 of 1
 * (every Read result of ../shared/corpus). A read that reached the end drops that line from its own count when its
 * text ends in a newline (or is empty), and the total drops it unless the read saw the file end without one. A read
 * that did not see the end (stopped before it, began past it, or was cut short) cannot tell whether the file ends in
 * a newline, so its total is the file's lines or one fewer: it has none. In ../shared/wild 25 of the 307 reads that
 * saw their file's end saw none; taking one for granted showed cctrace's export_claude_session.py (634 lines, no
 * final newline) read in part "of 633".
 */
function fileLines(
  content: string,
  startLine: number,
  numLines: number | undefined,
  totalLines: number | undefined,
): { numLines: number; totalLines: number | undefined } {
  // the pieces `split('\n')` would make, counted (a large file's text is not split into an array)
  const split = newlineCount(content) + 1;
  const given = numLines ?? split;
  const reachedEnd = totalLines === undefined || startLine + given - 1 >= totalLines;
  // `given !== split`: a count that is not the text's own (nothing read past the end, a text cut short).
  const whole = reachedEnd && given === split;
  const phantom = whole && (content === '' || content.endsWith('\n'));
  return {
    numLines: phantom ? given - 1 : given,
    totalLines: !whole || totalLines === undefined ? undefined : phantom ? Math.max(0, totalLines - 1) : totalLines,
  };
}

export const read: DataParser = (ctx) => {
  const filePathInput = str(ctx.input.file_path);
  const tur = rec(ctx.structured);
  if (tur) {
    const file = rec(tur.file);
    if (!file) return undefined;
    const filePath = str(file.filePath) ?? filePathInput;
    switch (tur.type) {
      case 'text': {
        const content = str(file.content) ?? '';
        const startLine = num(file.startLine) ?? 1;
        return {
          variant: 'text',
          filePath,
          content,
          startLine,
          ...fileLines(content, startLine, num(file.numLines), num(file.totalLines)),
          truncated: bool(file.truncatedByTokenCap),
        };
      }
      case 'image':
        return {
          variant: 'image',
          filePath,
          mediaType: str(file.type) ?? 'image/png',
          originalSize: num(file.originalSize),
          dimensions: numericRecord(file.dimensions),
        };
      case 'notebook':
        return { variant: 'notebook', filePath, cells: notebookCells(file.cells) };
      case 'pdf':
        return { variant: 'pdf', filePath, originalSize: num(file.originalSize) };
      case 'parts':
        return {
          variant: 'parts',
          filePath,
          originalSize: num(file.originalSize),
          count: num(file.count),
          outputDir: str(file.outputDir),
        };
      case 'file_unchanged':
        return { variant: 'file_unchanged', filePath };
      default:
        return undefined;
    }
  }
  // From the content.
  if (typeof ctx.content !== 'string') {
    const image = ctx.content.find((b) => b.kind === 'image');
    if (image) return { variant: 'image', filePath: filePathInput, mediaType: image.mediaType };
  }
  const text = ctx.text;
  const jsonImage = tryJson(text);
  if (Array.isArray(jsonImage) && isRecord(jsonImage[0]) && jsonImage[0].type === 'image') {
    const source = rec(jsonImage[0].source);
    return { variant: 'image', filePath: filePathInput, mediaType: str(source?.media_type) ?? 'image/png' };
  }
  if (filePathInput === undefined) return undefined;
  if (/^File unchanged since last read/i.test(text.trim()))
    return { variant: 'file_unchanged', filePath: filePathInput };
  if (/^PDF file read: /.test(text)) return { variant: 'pdf', filePath: filePathInput };
  const parts = /^PDF pages extracted: (\d+) page/.exec(text);
  if (parts) return { variant: 'parts', filePath: filePathInput, count: Number(parts[1]) };
  if (/<cell id="/.test(text)) {
    const cells: unknown[] = [];
    const re = /<cell id="([^"]*)">(?:<cell_type>(\w+)<\/cell_type>)?([\s\S]*?)<\/cell id="\1">/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      cells.push({ cellId: m[1], cellType: m[2] ?? 'code', source: m[3] ?? '' });
    }
    return { variant: 'notebook', filePath: filePathInput, cells };
  }
  if (/Warning: the file exists but the contents are empty/.test(text) && stripSystemReminders(text) === '') {
    return { variant: 'text', filePath: filePathInput, content: '', startLine: 1, numLines: 0 };
  }
  const numbered = parseNumberedLines(text);
  if (!numbered) return undefined;
  return {
    variant: 'text',
    filePath: filePathInput,
    content: numbered.lines.join('\n'),
    startLine: numbered.startLine,
    numLines: numbered.lines.length,
  };
};

export const write: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const operation = tur.type === 'create' || tur.type === 'update' ? tur.type : undefined;
    const filePath = str(tur.filePath);
    if (!operation || filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    const content = str(tur.content);
    const counts =
      operation === 'create' && structuredPatch.length === 0
        ? { linesAdded: lineCount(content ?? ''), linesRemoved: 0 }
        : patchCounts(structuredPatch);
    return {
      filePath,
      operation,
      content,
      structuredPatch,
      originalFile: tur.originalFile === null ? null : str(tur.originalFile),
      userModified: bool(tur.userModified),
      ...counts,
    };
  }
  const text = ctx.text;
  const created = /^File created successfully at: (.+?)(?: \(file state is current[^)]*\))?$/m.exec(text);
  const content = str(ctx.input.content);
  if (created) {
    return {
      filePath: created[1],
      operation: 'create',
      content,
      structuredPatch: [],
      linesAdded: content === undefined ? undefined : lineCount(content),
      linesRemoved: content === undefined ? undefined : 0,
    };
  }
  const updated = /^The file (.+?) has been updated/.exec(text);
  if (updated) return { filePath: updated[1], operation: 'update', content, structuredPatch: [] };
  return undefined;
};

export const edit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filePath = str(tur.filePath);
    if (filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    return {
      filePath,
      oldString: str(tur.oldString),
      newString: str(tur.newString),
      replaceAll: bool(tur.replaceAll),
      userModified: bool(tur.userModified),
      originalFile: tur.originalFile === null ? null : str(tur.originalFile),
      structuredPatch,
      ...patchCounts(structuredPatch),
    };
  }
  const text = ctx.text;
  const updated = /^The file (.+?) has been updated/.exec(text);
  const replacedAll = /^All occurrences of /.test(text);
  if (!updated && !replacedAll) return undefined;
  return {
    filePath: updated?.[1] ?? str(ctx.input.file_path),
    oldString: str(ctx.input.old_string),
    newString: str(ctx.input.new_string),
    replaceAll: bool(ctx.input.replace_all) ?? (replacedAll ? true : undefined),
    structuredPatch: [],
  };
};

function editList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((e) => ({
    oldString: str(e.old_string) ?? str(e.oldString) ?? '',
    newString: str(e.new_string) ?? str(e.newString) ?? '',
    replaceAll: bool(e.replace_all) ?? bool(e.replaceAll),
  }));
}

export const multiEdit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filePath = str(tur.filePath);
    if (filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    const original = tur.originalFileContents ?? tur.originalFile;
    return {
      filePath,
      edits: editList(tur.edits),
      originalFile: original === null ? null : str(original),
      structuredPatch,
      userModified: bool(tur.userModified),
      ...patchCounts(structuredPatch),
    };
  }
  const applied = /^Applied \d+ edits? to (.+?):/.exec(ctx.text);
  if (!applied) return undefined;
  return { filePath: applied[1], edits: editList(ctx.input.edits), structuredPatch: [] };
};

export const notebookEdit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (typeof tur.new_source !== 'string' && typeof tur.edit_mode !== 'string') return undefined;
    const error = str(tur.error);
    return {
      notebookPath: str(tur.notebook_path) ?? str(ctx.input.notebook_path),
      cellId: str(tur.cell_id),
      cellType: str(tur.cell_type),
      language: str(tur.language),
      editMode: str(tur.edit_mode),
      newSource: str(tur.new_source) ?? '',
      oldSource: str(tur.old_source),
      error: error === '' ? undefined : error,
    };
  }
  const match = /^(Updated|Inserted|Deleted) cell (\S+)(?: with ([\s\S]*))?$/.exec(ctx.text);
  if (!match) return undefined;
  const editMode = match[1] === 'Updated' ? 'replace' : match[1] === 'Inserted' ? 'insert' : 'delete';
  return {
    notebookPath: str(ctx.input.notebook_path),
    cellId: match[2],
    cellType: str(ctx.input.cell_type),
    editMode,
    newSource: match[3] ?? str(ctx.input.new_source) ?? '',
  };
};

export const ls: DataParser = (ctx) => {
  const listing = ctx.turString ?? ctx.text.replace(/\n+NOTE: do any of the files above seem malicious\?[\s\S]*$/, '');
  return { listing };
};
