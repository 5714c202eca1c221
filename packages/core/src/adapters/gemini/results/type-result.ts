import { isRecord, str } from '../../../internal/guards.js';
import {
  buildTypedResult,
  imagesOf,
  type ResultInput,
  type TypedOutcome,
  unknownTypedResult,
} from '../../../model/build-typed-result.js';
import { resultText } from '../../../model/content.js';
import { shellExitError } from '../../../results/shell-exit.js';
import { kindOfGeminiTool } from '../tool-names.js';
import type { GeminiResultContext } from './context.js';
import { unwrapUntrusted } from './context.js';
import { classifyGeminiError } from './errors.js';
import { editData, lsData, readData, writeData } from './files.js';
import type { DataKind } from './kinds.js';
import { agentData, mcpData, memoryData, processListData, taskCompleteData, todoData, topicData } from './other.js';
import { globData, grepData } from './search.js';
import { geminiShellExitOf, shellData } from './shell.js';
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
  memory: memoryData,
  topic: topicData,
  'process-list': processListData,
  'task-complete': taskCompleteData,
};

/** Type one Gemini tool result onto the shared kinds. Never throws. */
export function typeGeminiToolResult(input: ResultInput): TypedOutcome {
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
  const shellExit =
    input.isError && ctx.status === 'success' ? geminiShellExitOf(input.name, ctx.args, ctx.text) : undefined;
  if (shellExit?.failed === true) {
    // A command that exited non-zero: typed as Claude Code's Bash failures are (the exit code on the error).
    const out = shellExit.output;
    const error = shellExitError(shellExit.exitCode, [out.output, out.error ?? ''].filter((s) => s !== '').join('\n'));
    return { typed: { kind: 'error', tool: input.name, message: error.message }, error, images };
  }
  if (input.isError) {
    const message =
      ctx.text.trim() || (typeof ctx.display === 'string' ? ctx.display : '') || `status ${ctx.status ?? 'error'}`;
    const classified = classifyGeminiError(kind, message, ctx.status);
    // A failed MCP call keeps its server and tool (its name, `mcp_<server>_<tool>`, is not `mcp__…`, so nothing
    // downstream can split it).
    const mcp = kind === 'mcp' ? buildTypedResult('mcp', ctx.tool, () => mcpData(ctx)) : undefined;
    return {
      typed: mcp ?? { kind: 'error', tool: input.name, message },
      error: { ...classified, message },
      images,
    };
  }
  const typer = kind === undefined ? undefined : typers[kind];
  const typed =
    kind === undefined || typer === undefined ? undefined : buildTypedResult(kind, ctx.tool, () => typer(ctx));
  return {
    typed: typed ?? unknownTypedResult(input.name, input.content, input.toolUseResult),
    error: undefined,
    images,
  };
}
