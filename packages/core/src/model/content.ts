import type { ToolUseId } from './ids.js';

/** An image found in a message or a tool result (base64 data, or a reference to a file). */
export interface ImageValue {
  readonly kind: 'image';
  readonly mediaType: string;
  /** Base64 data without the data: prefix. */
  readonly data: string;
}

/** Content blocks of user and assistant messages, normalized and keyed by `kind`. */
export type ContentBlock =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'thinking'; readonly thinking: string; readonly signature?: string | undefined }
  | { readonly kind: 'redacted-thinking'; readonly data: string }
  | {
      readonly kind: 'tool-use';
      readonly id: ToolUseId;
      readonly name: string;
      readonly input: unknown;
    }
  | {
      readonly kind: 'tool-result';
      readonly toolUseId: ToolUseId;
      readonly content: ResultContent;
      readonly isError: boolean;
    }
  | ImageValue
  | { readonly kind: 'document'; readonly raw: unknown }
  | { readonly kind: 'server-tool-use'; readonly id: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'server-tool-result'; readonly type: string; readonly toolUseId: string; readonly raw: unknown }
  | { readonly kind: 'unknown'; readonly type: string; readonly raw: unknown };

/** Blocks that can appear inside a tool_result's content array. */
export type ResultBlock =
  | { readonly kind: 'text'; readonly text: string }
  | ImageValue
  | { readonly kind: 'tool-reference'; readonly toolName: string }
  | { readonly kind: 'search-result'; readonly title: string; readonly source: string; readonly text: string }
  | { readonly kind: 'document'; readonly raw: unknown }
  | { readonly kind: 'unknown'; readonly type: string; readonly raw: unknown };

/** tool_result content: a string as written, or an array of blocks. */
export type ResultContent = string | readonly ResultBlock[];

/** Plain text of a result content: the string, or the text blocks joined. */
export function resultText(content: ResultContent): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of content) {
    if (block.kind === 'text') parts.push(block.text);
    else if (block.kind === 'search-result') parts.push(block.text);
  }
  return parts.join('\n');
}

/**
 * An image block as the Messages API writes it, `{type:'image', source:{type:'base64', data, media_type}}`, as an
 * `ImageValue`; undefined for anything else. A tool's result and a queued message hold them so.
 */
export function rawImage(raw: unknown): ImageValue | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, source } = raw as { type?: unknown; source?: unknown };
  if (type !== 'image' || typeof source !== 'object' || source === null) return undefined;
  const { data, media_type: mediaType } = source as { data?: unknown; media_type?: unknown };
  if (typeof data !== 'string') return undefined;
  return { kind: 'image', mediaType: typeof mediaType === 'string' ? mediaType : 'image/png', data };
}
