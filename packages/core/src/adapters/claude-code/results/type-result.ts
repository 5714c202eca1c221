import { isRecord } from '../../../internal/guards.js';
import {
  buildTypedResult,
  type ResultInput,
  stripUndefined,
  type TypedOutcome,
  toolResultOf,
  unknownTypedResult,
} from '../../../model/build-typed-result.js';
import type { ImageValue, ResultContent } from '../../../model/content.js';
import type { RawCall, RawResult } from '../../../model/raw.js';
import type { ToolResult } from '../../../model/tool-call.js';
import type { DataKind, TypedResult } from '../../../model/typed-result.js';
import { classifyError } from '../../../results/classify-error.js';
import { canonicalToolName } from '../tool-names.js';
import { collectImages, contentText, unwrapToolUseError } from './text.js';
import { dataParsers, kindOfTool, type ParseContext } from './tools/index.js';

/** The message of an error result: the content without its `<tool_use_error>` wrapper. */
export function errorMessageOf(content: ResultContent, toolUseResult: unknown): { text: string; wrapped: boolean } {
  const unwrapped = unwrapToolUseError(contentText(content));
  if (unwrapped.text !== '') return unwrapped;
  if (typeof toolUseResult === 'string') return { text: toolUseResult.replace(/^Error: /, '').trim(), wrapped: false };
  return unwrapped;
}

/** Type one tool result. Never throws. */
export function typeToolResult(input: ResultInput): TypedOutcome {
  const kind = kindOfTool(input.canonicalName);
  let images: ImageValue[] = [];
  try {
    images = collectImages(input.content, input.toolUseResult);
  } catch {
    images = [];
  }
  if (input.isError) {
    const { text, wrapped } = errorMessageOf(input.content, input.toolUseResult);
    const classified = classifyError(kind, text, wrapped);
    // A failed MCP call keeps its server and tool, as Gemini's do, so failures count by server across agents.
    const mcp = kind === 'mcp' ? typeAs('mcp', input) : undefined;
    return {
      typed: mcp ?? { kind: 'error', tool: input.name, message: text },
      error: stripUndefined({ ...classified, message: text }),
      images,
    };
  }
  const typed = kind === undefined ? undefined : typeAs(kind, input);
  return {
    typed: typed ?? unknownTypedResult(input.name, input.content, input.toolUseResult),
    error: undefined,
    images,
  };
}

/** Parse with the kind's parser and validate against its schema; undefined when it does not fit. */
function typeAs(kind: DataKind, input: ResultInput): TypedResult | undefined {
  const tur = input.toolUseResult;
  const ctx: ParseContext = {
    tool: input.name,
    input: isRecord(input.input) ? input.input : {},
    content: input.content,
    text: contentText(input.content),
    // 2.1.330 `{detachedToolCall:true}` stands in for the output of a call that stepped aside: use the content.
    structured: tur !== null && typeof tur === 'object' && !isDetached(tur) ? tur : undefined,
    turString: typeof tur === 'string' ? tur : undefined,
  };
  const parse = dataParsers[kind];
  return parse === undefined ? undefined : buildTypedResult(kind, input.name, () => parse(ctx));
}

function isDetached(value: object): boolean {
  return isRecord(value) && value.detachedToolCall === true && Object.keys(value).length === 1;
}

/** Type a raw result against its call (the adapter's `typeResult`). */
export function typeResult(call: RawCall, raw: RawResult): ToolResult {
  const outcome = typeToolResult({
    name: call.name,
    canonicalName: canonicalToolName(call.name),
    input: call.input,
    content: raw.content,
    toolUseResult: raw.toolUseResult,
    isError: raw.isError,
  });
  return toolResultOf(raw, outcome);
}
