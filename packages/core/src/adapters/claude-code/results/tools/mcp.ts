/** Parsers of the MCP tools: `mcp__*` tools, ListMcpResources, ReadMcpResource, ReadMcpResourceDir, ToolSearch. */
import { isRecord, num, str } from '../../../../internal/guards.js';
import { parseMcpToolName } from '../../tool-names.js';
import { strArray, tryJson } from '../text.js';
import { type DataParser, rec } from './shared.js';

export const mcp: DataParser = (ctx) => {
  const parsed = parseMcpToolName(ctx.tool) ?? { server: '', tool: ctx.tool };
  const blocks: unknown[] = [];
  if (typeof ctx.content === 'string') {
    if (ctx.content !== '') blocks.push({ type: 'text', text: ctx.content });
  } else {
    for (const block of ctx.content) {
      if (block.kind === 'text') blocks.push({ type: 'text', text: block.text });
      else if (block.kind === 'image') blocks.push({ type: 'image', mediaType: block.mediaType });
      else blocks.push({ type: 'other', blockType: block.kind === 'unknown' ? block.type : block.kind });
    }
  }
  return { server: parsed.server, tool: parsed.tool, text: ctx.text, blocks };
};

function resourceList(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((r) => ({
    uri: str(r.uri) ?? '',
    name: str(r.name),
    title: str(r.title),
    server: str(r.server),
    mimeType: str(r.mimeType),
    description: str(r.description),
  }));
}

export const listMcpResources: DataParser = (ctx) => {
  const resources = resourceList(ctx.structured) ?? resourceList(tryJson(ctx.text));
  return resources && { resources };
};

export const readMcpResource: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur || !Array.isArray(tur.contents)) return undefined;
  return {
    contents: tur.contents.filter(isRecord).map((c) => ({
      uri: str(c.uri),
      mimeType: str(c.mimeType),
      text: str(c.text),
      blobSavedTo: str(c.blobSavedTo),
    })),
    error: str(tur.error),
  };
};

export const readMcpResourceDir: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur || !Array.isArray(tur.resources)) return undefined;
  return {
    resources: tur.resources
      .filter(isRecord)
      .map((r) => ({ uri: str(r.uri) ?? '', name: str(r.name), mimeType: str(r.mimeType) })),
    error: str(tur.error),
  };
};

export const toolSearch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const matches = strArray(tur.matches);
    if (!matches) return undefined;
    return {
      query: str(tur.query) ?? str(ctx.input.query) ?? '',
      matches,
      totalDeferredTools: num(tur.total_deferred_tools) ?? num(tur.total_mcp_tools),
      pendingMcpServers: strArray(tur.pending_mcp_servers),
    };
  }
  const query = str(ctx.input.query) ?? '';
  if (typeof ctx.content !== 'string') {
    const refs = ctx.content.filter((b) => b.kind === 'tool-reference');
    if (refs.length > 0) return { query, matches: refs.map((b) => b.toolName) };
  }
  if (/^No matching/i.test(ctx.text.trim())) return { query, matches: [] };
  return undefined;
};
