import type { ContentBlock } from '../model/content.js';

/**
 * What to call a response's block that is neither text, thinking nor a tool call (`other-block`), in every surface
 * that shows one beside its raw data: an image, a document, a server tool's use or result by its name, a block of a
 * kind AgentDash does not know by the type its agent wrote (`fallback`), and the count of blocks a hostile record's
 * cut left out (`omitted`, the server's).
 */
export function otherBlockLabel(block: ContentBlock | { readonly kind: 'omitted' } | undefined): string {
  if (block === undefined) return 'unknown block';
  switch (block.kind) {
    case 'server-tool-use':
      return `server tool ${block.name}`;
    case 'server-tool-result':
      return block.type.replace(/_/g, ' ');
    case 'unknown':
      return `unknown block ${block.type}`;
    case 'redacted-thinking':
      return 'redacted thinking';
    case 'omitted':
      return 'blocks left out';
    default:
      return block.kind.replace(/-/g, ' ');
  }
}

/** Such a block as its agent wrote it, where the model keeps that (`raw`), else as the model holds it. */
export function otherBlockRaw(block: ContentBlock): unknown {
  return 'raw' in block ? block.raw : block;
}
