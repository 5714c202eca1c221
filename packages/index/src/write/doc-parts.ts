/**
 * The searchable texts of one record, in a fixed order: the importer indexes them, and search reads a hit's text
 * back from the transcript by its place and part (`docPartsAt`) to cut its snippet, so the text itself is stored
 * nowhere in the index.
 */
import { noteSourceOf, searchableResultText, shownOf, type TranscriptRecord, userText } from '@agentdash/core';
import { noteFields, plainText } from '@agentdash/core/present';
import type { DOC_KINDS } from '../schema/stored-values.js';

/** Longest text indexed per searchable document: search reads each text up to this many characters. */
export const MAX_DOC_CHARS = 200_000;

export type DocKind = (typeof DOC_KINDS)[number];

export interface DocPart {
  readonly kind: DocKind;
  /** The indexed text (clipped); never blank. */
  readonly text: string;
  /** The tool_use id of a tool input or output. */
  readonly callId?: string;
  /** The tool's name (tool inputs only: an output's tool is its call's, found in the index). */
  readonly tool?: string;
  /** A tool output that is a file's text as a file tool (Read, Edit, Write, …) printed it, with line numbers. */
  readonly listing?: boolean;
  /** What its secrets are counted in, when not `text`: a tool's input, its strings with the keys they stand under. */
  readonly secretsIn?: unknown;
}

/** Whether a result's `toolUseResult` is a file tool's (Read: `file.filePath`; Edit, MultiEdit, Write: `filePath`). */
function isFileToolResult(toolUseResult: unknown): boolean {
  if (typeof toolUseResult !== 'object' || toolUseResult === null) return false;
  const rec = toolUseResult as { filePath?: unknown; file?: { filePath?: unknown } | null };
  return typeof rec.filePath === 'string' || typeof rec.file?.filePath === 'string';
}

/** Every string value inside a JSON value, for full-text search over tool inputs. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/**
 * The words of a document as the full-text index gets them (and as its snippet is cut): a tool output's line numbers
 * (file text as Read, Edit and `cat -n` print it) are left out. They are no word anyone searches for, yet were a
 * tenth of all indexed tokens on real transcripts (each distinct number a term of its own in every file read), so
 * searching for "42" found every file of 42 lines or more. A number is dropped only where it follows the line
 * numbered one less, so the first line of a run, and numbers that merely start a line, stay searchable. `N→` is
 * Claude Code's listing alone; `N<tab>` is also tab-separated data (ids from a database, `cut -f`), so there it is
 * dropped only in a file tool's output, or when padded as `cat -n` and `nl` pad it.
 *
 * A line's number is as listings print it: `     N→` (Read and Edit up to 2.1.8x), `N<tab>` (2.1.90+, `cat -n`):
 * spaces or tabs, 1 to 9 digits, the mark. Lines are scanned by hand (much faster than a pattern with a callback per
 * line over tool outputs, most of them file listings).
 */
export function indexedText(part: DocPart): string {
  // Terminal colours and other control sequences are no part of a word (`ESC[1mWould` is "Would"), as the timeline
  // shows the text; and a text's own U+0001/U+0002 would read as a snippet's highlight marks.
  // (A text whose only controls are carriage returns keeps them: a listing's lines are read with them.)
  const text = CONTROLS_BUT_LINES.test(part.text) ? plainText(part.text.replace(SEPARATORS, ' ')) : part.text;
  if (part.kind !== 'tool-output') return text;
  // Most outputs end their lines with `\n` alone: then the next line is found by `indexOf`, not by the pattern.
  const newlinesOnly = text.indexOf('\r') === -1 && text.indexOf('\u2028') === -1 && text.indexOf('\u2029') === -1;
  let out = '';
  let copied = 0;
  let previous = -2;
  for (let at = 0; at < text.length; ) {
    let p = at;
    while (text.charCodeAt(p) === SPACE || text.charCodeAt(p) === TAB) p += 1;
    const digitsAt = p;
    let n = 0;
    // Up to 9 digits; a tenth makes it no line number.
    for (let c = text.charCodeAt(p); p - digitsAt < 10 && c >= ZERO && c <= NINE; c = text.charCodeAt(++p)) {
      n = n * 10 + (c - ZERO);
    }
    const mark = text.charCodeAt(p);
    if (p > digitsAt && p - digitsAt <= 9 && (mark === ARROW || mark === TAB)) {
      const follows = n === previous + 1;
      previous = n;
      if (follows && (mark === ARROW || part.listing === true || digitsAt > at)) {
        out += text.slice(copied, at);
        copied = p + 1;
      }
    }
    // The next line starts after any line terminator (as `^` of a multiline pattern does).
    if (newlinesOnly) {
      const end = text.indexOf('\n', p);
      if (end === -1) break;
      at = end + 1;
    } else {
      LINE_END.lastIndex = p;
      if (!LINE_END.test(text)) break;
      at = LINE_END.lastIndex;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const LINE_END = /[\n\r\u2028\u2029]/g;
/** A control character other than tab, newline and carriage return: an escape sequence's start, a bell, U+0001… */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/**
 * Control characters that stand between words (`find -print0`'s NUL, a form feed, git's `%x1f`): a space, not nothing
 * (`plainText` takes them out). Not ESC nor BEL, which start and end sequences, nor the C1 range.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const SEPARATORS = /[\u0000-\u0006\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/g;
const SPACE = 0x20;
const TAB = 0x09;
const ZERO = 0x30;
const NINE = 0x39;
const ARROW = 0x2192;

/** The searchable texts of a record, in order (blank texts left out). */
export function docPartsOf(record: TranscriptRecord): DocPart[] {
  const parts: DocPart[] = [];
  const add = (part: DocPart) => {
    if (part.text.trim() === '') return;
    parts.push(part.text.length > MAX_DOC_CHARS ? { ...part, text: part.text.slice(0, MAX_DOC_CHARS) } : part);
  };
  // how the timeline shows a user or system record: a prompt, a note, or nothing
  const shows = shownOf(record);
  if (record.kind === 'user') {
    if (shows === 'prompt') add({ kind: 'prompt', text: userText(record.content) });
    if (typeof record.content !== 'string') {
      for (const block of record.content) {
        if (block.kind !== 'tool-result' || block.toolUseId === '') continue;
        add({
          kind: 'tool-output',
          text: searchableResultText(block.content, record.toolUseResult),
          callId: block.toolUseId,
          ...(isFileToolResult(record.toolUseResult) ? { listing: true } : {}),
        });
      }
    }
  } else if (record.kind === 'assistant') {
    for (const block of record.content) {
      if (block.kind === 'text') add({ kind: 'assistant', text: block.text });
      else if (block.kind === 'thinking') add({ kind: 'thinking', text: block.thinking });
      else if (block.kind === 'tool-use') {
        const text = stringsOf(block.input).join('\n');
        add({ kind: 'tool-input', text, callId: block.id, tool: block.name, secretsIn: block.input });
      }
    }
  }
  // After the record's other texts (a team server finds a document by its number among its line's): a note the
  // timeline shows (a slash command, what it printed, a compaction's summary), as it reads there.
  const note = shows === 'note' ? noteSourceOf(record) : undefined;
  if (note !== undefined) add({ kind: 'note', text: noteFields(note), secretsIn: note });
  // A record of a kind AgentDash does not know, as the timeline shows it: its raw JSON.
  if (record.kind === 'unknown')
    add({ kind: 'note', text: JSON.stringify(record.raw, null, 2), secretsIn: record.raw });
  return parts;
}

/**
 * The searchable texts at one place of a transcript (a line, or a message of a JSON document), in order: those of
 * each of its records in turn. A document's `part` is its number among them: a place can hold several records with
 * texts (a Gemini or OpenCode response with its calls and results, a Codex web search with its result), so a
 * number within one record would not tell which record's text it is.
 */
export function docPartsAt(records: readonly TranscriptRecord[]): DocPart[] {
  return records.flatMap(docPartsOf);
}

/**
 * Numbers the documents of a read's records as `docPartsAt` does: from 0 at each place, on through its records. An
 * adapter gives a place's records one after another (as a record's holder is followed by the subagent's record it
 * holds a copy of, at the holder's place), so the place before is all that is kept.
 */
export class DocNumbers {
  private line = Number.NaN;
  private offset = Number.NaN;
  private next = 0;

  /** The number of the first of the `count` documents of a record at this place. */
  take(place: { readonly line: number; readonly offset: number }, count: number): number {
    if (place.line !== this.line || place.offset !== this.offset) {
      this.line = place.line;
      this.offset = place.offset;
      this.next = 0;
    }
    const first = this.next;
    this.next += count;
    return first;
  }
}
