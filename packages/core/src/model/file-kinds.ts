import { z } from './zod.js';

/*
 * Result kinds of the file tools every agent has: reads, writes and edits (with their structured patches), patches
 * over several files, file name and content searches, listings. Their data schemas, spread into `typed-result.ts`'s
 * in their place (kept apart so that file stays readable). Browser-safe, as typed-result.ts is.
 */

const num = z.number();
const str = z.string();
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

/** One hunk of a structured patch: `lines` are prefixed with " ", "+" or "-". */
export const hunkSchema = z.object({
  oldStart: num,
  oldLines: num,
  newStart: num,
  newLines: num,
  lines: z.array(str),
});

/**
 * One hunk of a patch whose line numbers the agent may not have written (Codex `apply_patch` hunks carry only
 * context): `lines` are prefixed with " ", "+" or "-"; `header` is the text after `@@`, when any.
 */
export const patchHunkSchema = z.object({
  oldStart: opt(num),
  oldLines: opt(num),
  newStart: opt(num),
  newLines: opt(num),
  header: opt(str),
  lines: z.array(str),
});

export const fileKindSchemas = {
  read: z.discriminatedUnion('variant', [
    z.object({
      variant: z.literal('text'),
      filePath: str,
      content: str,
      startLine: num,
      numLines: num,
      totalLines: opt(num),
      truncated: opt(z.boolean()),
    }),
    z.object({
      variant: z.literal('image'),
      filePath: opt(str),
      mediaType: str,
      originalSize: opt(num),
      dimensions: opt(z.record(str, num)),
    }),
    z.object({
      variant: z.literal('notebook'),
      filePath: str,
      cells: z.array(
        z.object({
          cellId: opt(str),
          cellType: str,
          source: str,
          language: opt(str),
          executionCount: opt(num.nullable()),
          outputs: opt(z.array(z.unknown())),
        }),
      ),
    }),
    z.object({ variant: z.literal('pdf'), filePath: str, originalSize: opt(num) }),
    z.object({
      variant: z.literal('parts'),
      filePath: str,
      originalSize: opt(num),
      count: opt(num),
      outputDir: opt(str),
    }),
    z.object({ variant: z.literal('file_unchanged'), filePath: str }),
  ]),
  write: z.object({
    filePath: str,
    operation: z.enum(['create', 'update']),
    content: opt(str),
    structuredPatch: z.array(hunkSchema),
    originalFile: opt(str.nullable()),
    userModified: opt(z.boolean()),
    /** From the patch (or the new file's text); undefined when the result carries no patch. */
    linesAdded: opt(num),
    linesRemoved: opt(num),
  }),
  edit: z.object({
    filePath: str,
    /**
     * `create` when the edit made the file (Gemini's `replace` with an empty `old_string` on a missing file, as
     * Claude Code's Write says of a new file); `update` when the result says it changed one; undefined when the
     * result does not say (Claude Code's Edit only changes files).
     */
    operation: opt(z.enum(['create', 'update'])),
    oldString: opt(str),
    newString: opt(str),
    replaceAll: opt(z.boolean()),
    userModified: opt(z.boolean()),
    originalFile: opt(str.nullable()),
    structuredPatch: z.array(hunkSchema),
    /** From the patch (or the new file's text); undefined when the result carries no patch. */
    linesAdded: opt(num),
    linesRemoved: opt(num),
  }),
  'multi-edit': z.object({
    filePath: str,
    edits: z.array(z.object({ oldString: str, newString: str, replaceAll: opt(z.boolean()) })),
    originalFile: opt(str.nullable()),
    structuredPatch: z.array(hunkSchema),
    userModified: opt(z.boolean()),
    /** From the patch (or the new file's text); undefined when the result carries no patch. */
    linesAdded: opt(num),
    linesRemoved: opt(num),
  }),
  patch: z.object({
    /** Every file the patch touched, in the order written. */
    files: z.array(
      z.object({
        path: str,
        operation: z.enum(['add', 'update', 'delete', 'move']),
        /** move: the path the file was moved to. */
        movePath: opt(str),
        hunks: z.array(patchHunkSchema),
        linesAdded: opt(num),
        linesRemoved: opt(num),
      }),
    ),
    /** What the tool reported back (e.g. the list of files updated), when anything. */
    output: opt(str),
  }),
  'notebook-edit': z.object({
    notebookPath: opt(str),
    cellId: opt(str),
    cellType: opt(str),
    language: opt(str),
    /** replace | insert | delete */
    editMode: opt(str),
    newSource: str,
    oldSource: opt(str),
    error: opt(str),
  }),
  glob: z.object({
    filenames: z.array(str),
    numFiles: num,
    durationMs: opt(num),
    truncated: opt(z.boolean()),
    totalMatches: opt(num),
  }),
  grep: z.object({
    /** content | files_with_matches | count */
    mode: str,
    filenames: z.array(str),
    content: opt(str),
    numFiles: num,
    numLines: opt(num),
    numMatches: opt(num),
    appliedLimit: opt(num),
    appliedOffset: opt(num),
    totalFiles: opt(num),
    totalLines: opt(num),
  }),
  ls: z.object({ listing: str }),
} as const;
