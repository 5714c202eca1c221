import { isRecord, str } from '../../internal/guards.js';
import type { ContentBlock, ImageValue, ResultBlock, ResultContent } from '../../model/content.js';
import { createToolUseId } from '../../model/ids.js';

/** Normalize one message content block. Unknown block types are kept raw. */
export function decodeContentBlock(raw: unknown): ContentBlock {
  if (!isRecord(raw)) return { kind: 'unknown', type: typeof raw, raw };
  const type = str(raw.type) ?? '';
  switch (type) {
    case 'text':
      return { kind: 'text', text: str(raw.text) ?? '' };
    case 'thinking':
      return { kind: 'thinking', thinking: str(raw.thinking) ?? '', signature: str(raw.signature) };
    case 'redacted_thinking':
      return { kind: 'redacted-thinking', data: str(raw.data) ?? '' };
    case 'tool_use':
      return { kind: 'tool-use', id: createToolUseId(str(raw.id) ?? ''), name: str(raw.name) ?? '', input: raw.input };
    case 'tool_result':
      return {
        kind: 'tool-result',
        toolUseId: createToolUseId(str(raw.tool_use_id) ?? ''),
        content: decodeResultContent(raw.content),
        isError: raw.is_error === true,
      };
    case 'image': {
      const image = decodeImage(raw);
      return image ?? { kind: 'unknown', type, raw };
    }
    case 'document':
      return { kind: 'document', raw };
    case 'server_tool_use':
    case 'mcp_tool_use':
      return { kind: 'server-tool-use', id: str(raw.id) ?? '', name: str(raw.name) ?? '', input: raw.input };
    case 'web_search_tool_result':
    case 'mcp_tool_result':
    case 'advisor_tool_result':
      return { kind: 'server-tool-result', type, toolUseId: str(raw.tool_use_id) ?? '', raw };
    default:
      return { kind: 'unknown', type, raw };
  }
}

/** Image block `{type:'image', source:{type:'base64', media_type, data}}` → ImageValue. */
export function decodeImage(raw: Record<string, unknown>): ImageValue | undefined {
  const source = raw.source;
  if (!isRecord(source)) return undefined;
  const data = str(source.data);
  if (data === undefined) return undefined;
  return { kind: 'image', mediaType: str(source.media_type) ?? 'image/png', data };
}

export function decodeResultContent(raw: unknown): ResultContent {
  if (typeof raw === 'string') return raw;
  if (raw === undefined || raw === null) return '';
  if (!Array.isArray(raw)) return JSON.stringify(raw);
  return raw.map(decodeResultBlock);
}

function decodeResultBlock(raw: unknown): ResultBlock {
  if (!isRecord(raw)) return { kind: 'unknown', type: typeof raw, raw };
  const type = str(raw.type) ?? '';
  switch (type) {
    case 'text':
      return { kind: 'text', text: str(raw.text) ?? '' };
    case 'image':
      return decodeImage(raw) ?? { kind: 'unknown', type, raw };
    case 'tool_reference':
      return { kind: 'tool-reference', toolName: str(raw.tool_name) ?? '' };
    case 'search_result': {
      const content = Array.isArray(raw.content) ? raw.content : [];
      const text = content
        .map((c) => (isRecord(c) ? (str(c.text) ?? '') : ''))
        .filter((t) => t.length > 0)
        .join('\n');
      return { kind: 'search-result', title: str(raw.title) ?? '', source: str(raw.source) ?? '', text };
    }
    case 'document':
      return { kind: 'document', raw };
    default:
      return { kind: 'unknown', type, raw };
  }
}
