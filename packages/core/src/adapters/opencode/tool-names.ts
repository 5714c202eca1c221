import type { DataKind } from '../../model/typed-result.js';

/** OpenCode's built-in tools (1.18.33's tool list as sent to the model, and the older `list`/`patch`/`todoread`). */
const KINDS = {
  bash: 'bash',
  read: 'read',
  write: 'write',
  edit: 'edit',
  multiedit: 'edit',
  patch: 'edit',
  glob: 'glob',
  grep: 'grep',
  list: 'ls',
  task: 'agent',
  webfetch: 'web-fetch',
  websearch: 'web-search',
  todowrite: 'todo-write',
} as const satisfies Record<string, DataKind>;

/** Tools without a shared kind of their own (their results are kept as written). */
const OTHER_BUILT_INS = new Set(['todoread', 'skill', 'question', 'invalid', 'lsp', 'codesearch', 'batch']);

/** OpenCode names its tools as it sends them: the canonical name is the written one. */
export function canonicalOpenCodeToolName(name: string): string {
  return name;
}

/** The shared kind of an OpenCode tool; an MCP tool (`<server>_<tool>`, not a built-in) is `mcp`. */
export function kindOfOpenCodeTool(name: string): DataKind | undefined {
  if (Object.hasOwn(KINDS, name)) return KINDS[name as keyof typeof KINDS];
  return mcpNameOf(name) === undefined ? undefined : 'mcp';
}

/**
 * The server and tool of an MCP tool: OpenCode names them `<server>_<tool>`, each with characters other than letters,
 * digits, `_` and `-` replaced by `_`; a server whose name holds `_` cannot be told apart, so the first `_` splits.
 */
export function mcpNameOf(name: string): { server: string; tool: string } | undefined {
  if (Object.hasOwn(KINDS, name) || OTHER_BUILT_INS.has(name)) return undefined;
  const at = name.indexOf('_');
  if (at <= 0 || at === name.length - 1) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + 1) };
}
