/**
 * The typed shape of a tool result. Each known tool has its own `kind`; MCP tools share `mcp`;
 * anything this library does not recognise is `unknown` and keeps its raw data.
 */
export type { TypedResult, TypedResultKind } from '../adapters/claude-code/results/typed-result.js';
