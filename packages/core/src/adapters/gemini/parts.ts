import { isRecord, str } from '../../internal/guards.js';
import type { ContentBlock, ResultBlock, ResultContent } from '../../model/content.js';
import { createIsoTimestamp, type IsoTimestamp } from '../../model/ids.js';

/* Reading the parts of Gemini messages and tool responses: text, thoughts, images, times. */

/** A call's result parts → result content: the response's output or error, text parts, inline images. */
export function resultContentOf(result: unknown): ResultContent {
  if (result === undefined || result === null) return '';
  if (typeof result === 'string') return result;
  const parts = Array.isArray(result) ? result : [result];
  const blocks: ResultBlock[] = [];
  for (const part of parts) {
    if (isRecord(part) && isRecord(part.functionResponse)) {
      const text = responseText(part.functionResponse.response);
      if (text !== '') blocks.push({ kind: 'text', text });
    } else if (isRecord(part) && typeof part.text === 'string') {
      blocks.push({ kind: 'text', text: part.text });
    } else if (isRecord(part) && isRecord(part.inlineData)) {
      blocks.push({
        kind: 'image',
        mediaType: str(part.inlineData.mimeType) ?? 'application/octet-stream',
        data: str(part.inlineData.data) ?? '',
      });
    } else blocks.push({ kind: 'unknown', type: partType(part), raw: part });
  }
  if (blocks.length === 1 && blocks[0]?.kind === 'text') return blocks[0].text;
  return blocks;
}

/** Text of a function response: its `output`, else its `error`, else its JSON. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (!isRecord(response)) return response === undefined ? '' : safeJson(response);
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  if (isRecord(response.error) && typeof response.error.message === 'string') return response.error.message;
  return safeJson(response);
}

/**
 * A thought's text: its subject, a blank line, its description. One line break ran them together in Markdown
 * ("Planning the inspection The user wants…"); the blank line keeps the subject a line of its own, as Codex's bold
 * summary headings are.
 */
export function thoughtText(thought: unknown): string {
  if (typeof thought === 'string') return thought;
  if (!isRecord(thought)) return '';
  const subject = str(thought.subject)?.trim() ?? '';
  const description = str(thought.description)?.trim() ?? '';
  if (subject === '') return description;
  return description === '' ? subject : `${subject}\n\n${description}`;
}

/** Text of a message's content: a string, or the text of its parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = partsOf(content);
  if (parts === undefined) return '';
  return parts
    .map((part) => (typeof part === 'string' ? part : isRecord(part) ? (str(part.text) ?? '') : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** A message's parts: a list as it is, one part (an object, as Gemini's API allows) as a list of it. */
export function partsOf(content: unknown): readonly unknown[] | undefined {
  if (Array.isArray(content)) return content;
  return isRecord(content) ? [content] : undefined;
}

/**
 * What a message's text leaves out, kept raw: parts that are neither text nor a thought, and content that is
 * neither a string nor parts (a number, say). Nothing for a string, text parts, or no content.
 */
export function otherPartsOf(content: unknown): ContentBlock[] {
  if (content === undefined || content === null || typeof content === 'string') return [];
  const parts = partsOf(content);
  if (parts === undefined) return [{ kind: 'unknown', type: typeof content, raw: content }];
  return parts.flatMap((part): ContentBlock[] =>
    typeof part === 'string' || (isRecord(part) && typeof part.text === 'string')
      ? []
      : [{ kind: 'unknown', type: partType(part), raw: part }],
  );
}

export function stampOf(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}

export function partType(part: unknown): string {
  if (isRecord(part)) return Object.keys(part)[0] ?? 'object';
  return part === null ? 'null' : typeof part;
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
