import { isRecord, str } from '../../../internal/guards.js';
import { type ImageValue, type ResultContent, resultText } from '../../../model/content.js';
import type { ToolError } from '../../../model/tool-error.js';
import { kindOfGeminiTool } from '../tool-names.js';
import type { GeminiResultContext } from './context.js';
import { unwrapUntrusted } from './context.js';
import { classifyGeminiError } from './errors.js';
import { editData, lsData, readData, writeData } from './files.js';
import { type DataKind, resultDataSchemas, type TypedResult } from './kinds.js';
import { agentData, mcpData, todoData } from './other.js';
import { globData, grepData } from './search.js';
import { shellData } from './shell.js';
import { webFetchData, webSearchData } from './web.js';

type Typer = (ctx: GeminiResultContext) => unknown;

/** The typers of the kinds Gemini tools map onto. */
const typers: Partial<Record<DataKind, Typer>> = {
  bash: shellData,
  read: readData,
  write: writeData,
  edit: editData,
  ls: lsData,
  glob: globData,
  grep: grepData,
  'web-search': webSearchData,
  'web-fetch': webFetchData,
  'todo-write': todoData,
  agent: agentData,
  mcp: mcpData,
};

/** Everything known about one Gemini result, for typing it. */
export interface GeminiResultInput {
  readonly name: string;
  readonly canonicalName: string;
  readonly input: unknown;
  readonly content: ResultContent;
  /** The call entry as recorded, without its args and result parts (`status`, `resultDisplay`, …, `response`). */
  readonly toolUseResult: unknown;
  readonly isError: boolean;
}

export interface GeminiTypedOutcome {
  readonly typed: TypedResult;
  readonly error: ToolError | undefined;
  readonly images: readonly ImageValue[];
}

/** Type one Gemini tool result onto the shared kinds. Never throws. */
export function typeGeminiToolResult(input: GeminiResultInput): GeminiTypedOutcome {
  const recorded = isRecord(input.toolUseResult) ? input.toolUseResult : {};
  const images = imagesOf(input.content);
  const ctx: GeminiResultContext = {
    tool: input.name,
    args: isRecord(input.input) ? input.input : {},
    text: unwrapUntrusted(resultText(input.content)),
    display: recorded.resultDisplay,
    status: str(recorded.status),
    agentId: str(recorded.agentId),
    displayName: str(recorded.displayName),
    images,
  };
  const kind = kindOfGeminiTool(input.canonicalName, { displayName: ctx.displayName, agentId: ctx.agentId });
  if (input.isError) {
    const message =
      ctx.text.trim() || (typeof ctx.display === 'string' ? ctx.display : '') || `status ${ctx.status ?? 'error'}`;
    const classified = classifyGeminiError(kind, message, ctx.status);
    return {
      typed: { kind: 'error', tool: input.name, message },
      error: { ...classified, message },
      images,
    };
  }
  const typed = kind === undefined ? undefined : typeAs(kind, ctx);
  return { typed: typed ?? unknownResult(input), error: undefined, images };
}

function typeAs(kind: DataKind, ctx: GeminiResultContext): TypedResult | undefined {
  const typer = typers[kind];
  if (typer === undefined) return undefined;
  let raw: unknown;
  try {
    raw = typer(ctx);
  } catch {
    return undefined;
  }
  const parsed = resultDataSchemas[kind].safeParse(stripUndefined(raw));
  if (!parsed.success) return undefined;
  return { kind, tool: ctx.tool, data: parsed.data } as TypedResult;
}

function unknownResult(input: GeminiResultInput): TypedResult {
  return stripUndefined({
    kind: 'unknown',
    tool: input.name,
    content: input.content,
    toolUseResult: input.toolUseResult,
  });
}

function imagesOf(content: ResultContent): ImageValue[] {
  if (typeof content === 'string') return [];
  return content.filter((b): b is ImageValue => b.kind === 'image');
}

function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => stripUndefined(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = stripUndefined(v);
    return out as T;
  }
  return value;
}
