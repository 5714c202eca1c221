import { isRecord, num, str } from '../../../internal/guards.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../../internal/json-depth.js';
import { type ImageValue, type ResultContent, rawImage, resultText } from '../../../model/content.js';

/** Remove a `<tool_use_error>…</tool_use_error>` wrapper (and surrounding blank space). */
export function unwrapToolUseError(text: string): { readonly text: string; readonly wrapped: boolean } {
  const match = /^\s*<tool_use_error>([\s\S]*?)<\/tool_use_error>\s*$/.exec(text);
  if (match) return { text: (match[1] ?? '').trim(), wrapped: true };
  return { text: text.trim(), wrapped: false };
}

/** Plain text of a result content. */
export function contentText(content: ResultContent): string {
  return resultText(content);
}

/** The inside of `<name>…</name>`, without the newline right after the opening and before the closing tag. */
export function tagValue(text: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
  if (!match) return undefined;
  return (match[1] ?? '').replace(/^\n/, '').replace(/\n$/, '');
}

/** JSON.parse that returns undefined instead of throwing; JSON nested too deep to walk safely is left as text. */
export function tryJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  return jsonDepth(parsed) > MAX_JSON_DEPTH ? undefined : parsed;
}

/** Line-numbered file text, in either format: `     N→line` (≤2.1.8x) or `N\tline` (2.1.90+). */
export function parseNumberedLines(text: string): { readonly startLine: number; readonly lines: string[] } | undefined {
  const body = stripSystemReminders(text);
  if (body === '') return undefined;
  const rows = body.split('\n');
  const lines: string[] = [];
  let startLine: number | undefined;
  for (const row of rows) {
    const match = /^\s*(\d+)(?:→|\t)(.*)$/.exec(row);
    if (!match) return undefined;
    if (startLine === undefined) startLine = Number(match[1]);
    lines.push(match[2] ?? '');
  }
  return startLine === undefined ? undefined : { startLine, lines };
}

/** Remove `<system-reminder>…</system-reminder>` blocks and trailing blank lines. */
export function stripSystemReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').replace(/\n+$/, '');
}

/** Seed 003 `tryParseImageContent`: a string holding a JSON image block (or an array of them). */
export function imagesInJsonString(text: string): ImageValue[] {
  const parsed = tryJson(text);
  const items = Array.isArray(parsed) ? parsed : parsed === undefined ? [] : [parsed];
  const out: ImageValue[] = [];
  for (const item of items) {
    const image = rawImage(item);
    if (image) out.push(image);
  }
  return out;
}

/** A `data:<mime>;base64,<data>` URL → ImageValue. */
export function dataUrlImage(text: string): ImageValue | undefined {
  const match = /^data:([\w/+.-]+);base64,([A-Za-z0-9+/=\s]+)$/.exec(text.trim());
  if (!match) return undefined;
  return { kind: 'image', mediaType: match[1] ?? 'image/png', data: (match[2] ?? '').replace(/\s/g, '') };
}

/** Every image of a result: image blocks, JSON image strings, Read image output, Bash image stdout. */
export function collectImages(content: ResultContent, toolUseResult: unknown): ImageValue[] {
  const found: ImageValue[] = [];
  if (typeof content === 'string') found.push(...imagesInJsonString(content));
  else {
    for (const block of content) {
      if (block.kind === 'image') found.push(block);
      else if (block.kind === 'text') found.push(...imagesInJsonString(block.text));
    }
  }
  if (isRecord(toolUseResult)) {
    const file = toolUseResult.file;
    if (toolUseResult.type === 'image' && isRecord(file)) {
      const data = str(file.base64);
      if (data !== undefined) found.push({ kind: 'image', mediaType: str(file.type) ?? 'image/png', data });
    }
    if (toolUseResult.isImage === true) {
      const image = dataUrlImage(str(toolUseResult.stdout) ?? '');
      if (image) found.push(image);
    }
  }
  const seen = new Set<string>();
  return found.filter((image) => {
    if (seen.has(image.data)) return false;
    seen.add(image.data);
    return true;
  });
}

/**
 * The words of a result, as search indexes them: its text blocks (or its text), but no image's base64 written as
 * text (an image block as a JSON string, 1.x's Read of an image) and no output of a command whose stdout is an image
 * (`isImage`, a data URL); when the content holds no words, the command's stdout and stderr (a background shell's).
 */
export function searchableResultText(content: ResultContent, toolUseResult: unknown): string {
  const words = (text: string) =>
    /^\s*\[?\s*\{\s*"type"\s*:\s*"image"/.test(text) && imagesInJsonString(text).length > 0 ? '' : text;
  const text =
    typeof content === 'string'
      ? words(content)
      : content
          .flatMap((b) => (b.kind === 'text' ? [words(b.text)] : b.kind === 'search-result' ? [b.text] : []))
          .join('\n');
  if (text.trim() !== '') return text;
  if (isRecord(toolUseResult)) {
    const image = toolUseResult.isImage === true;
    const out = [image ? undefined : toolUseResult.stdout, toolUseResult.stderr];
    return out.filter((v): v is string => typeof v === 'string').join('\n');
  }
  return typeof toolUseResult === 'string' ? toolUseResult : '';
}

/** Strings of an array (non-strings dropped); undefined when not an array. */
export function strArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/** A number, or null when explicitly null; undefined otherwise. */
export function numOrNull(value: unknown): number | null | undefined {
  return value === null ? null : num(value);
}

/** An object's own numeric properties. */
export function numericRecord(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(value)) {
    const n = num(v);
    if (n !== undefined) out[key] = n;
  }
  return out;
}
