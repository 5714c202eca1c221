import { isRecord, num, str } from '../../internal/guards.js';
import {
  buildTypedResult,
  imagesOf,
  lineCount,
  patchCounts,
  toolResultOf,
  unknownTypedResult,
} from '../../model/build-typed-result.js';
import { resultText } from '../../model/content.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';
import type { TypedResult } from '../../model/typed-result.js';
import { readShellExit, shellExitError } from '../../results/shell-exit.js';
import { parseUnifiedDiff } from '../../results/unified-diff.js';
import { classifyOpenCodeError } from './errors.js';
import { kindOfOpenCodeTool, mcpNameOf } from './tool-names.js';

/** `read`'s output: `<path>…</path><type>file</type><content>` numbered lines `N: text`, then a closing note. */
const READ_LINE = /^(\d+): ?(.*)$/;

/**
 * The exit code of a bash part (`state.metadata.exit`), and whether it fails the call as Claude Code's Bash reads
 * codes (non-zero fails, except exit 1 of a last grep/rg/find). OpenCode writes such a call `completed`.
 */
export function openCodeShellExit(call: Pick<RawCall, 'name' | 'input'>, state: unknown) {
  if (kindOfOpenCodeTool(call.name) !== 'bash') return undefined;
  const metadata = isRecord(state) && isRecord(state.metadata) ? state.metadata : {};
  const exitCode = num(metadata.exit);
  const input = isRecord(call.input) ? call.input : {};
  return { exitCode, exit: readShellExit(str(input.command), exitCode) };
}

/**
 * Type an OpenCode tool part's result (the part's `state`: `output` or `error`, `metadata`) onto the shared kinds.
 * `status: "error"` is a failed call, classified by its message; a bash command that exited non-zero is failed by
 * the decoder (its exit code from `metadata.exit`) and typed as the other agents' shell exits are.
 */
export function typeOpenCodeResult(call: RawCall, raw: RawResult): ToolResult {
  const state = isRecord(raw.toolUseResult) ? raw.toolUseResult : {};
  const metadata = isRecord(state.metadata) ? state.metadata : {};
  const text = resultText(raw.content);
  const input = isRecord(call.input) ? call.input : {};
  const shell = openCodeShellExit(call, state);
  const mcp = mcpNameOf(call.name);
  if (raw.isError && shell?.exit.failed === true && shell.exitCode !== undefined && state.status !== 'error') {
    const error = shellExitError(shell.exitCode, text);
    return toolResultOf(raw, { typed: { kind: 'error', tool: call.name, message: text }, error, images: [] });
  }
  if (raw.isError) {
    const error = classifyOpenCodeError(text);
    const typed: TypedResult =
      (mcp === undefined ? undefined : mcpTyped(call.name, mcp, text)) ??
      ({ kind: 'error', tool: call.name, message: text } as const);
    return toolResultOf(raw, { typed, error, images: imagesOf(raw.content) });
  }
  let typed: TypedResult | undefined;
  switch (kindOfOpenCodeTool(call.name)) {
    case 'bash':
      typed = buildTypedResult('bash', call.name, () => ({
        stdout: str(metadata.output) ?? text,
        stderr: '',
        exitCode: shell?.exitCode,
        interrupted: false,
        returnCodeInterpretation: shell?.exit.interpretation,
      }));
      break;
    case 'read': {
      const lines = readLinesOf(text);
      typed = buildTypedResult('read', call.name, () => ({
        variant: 'text',
        filePath: str(input.filePath),
        content: lines.map((l) => l.text).join('\n'),
        startLine: lines[0]?.number ?? (num(input.offset) ?? 0) + 1,
        numLines: lines.length,
        truncated: typeof metadata.truncated === 'boolean' ? metadata.truncated : undefined,
      }));
      break;
    }
    case 'write':
      typed = buildTypedResult('write', call.name, () => {
        const content = str(input.content);
        return {
          filePath: str(input.filePath) ?? str(metadata.filepath),
          operation: metadata.exists === true ? 'update' : 'create',
          content,
          structuredPatch: [],
          linesAdded: content === undefined ? undefined : lineCount(content),
          linesRemoved: metadata.exists === true ? undefined : 0,
        };
      });
      break;
    case 'edit': {
      const hunks = parseUnifiedDiff(str(metadata.diff) ?? '');
      const counts = hunks.length === 0 ? undefined : patchCounts(hunks);
      typed = buildTypedResult('edit', call.name, () => ({
        filePath: str(input.filePath),
        operation: 'update',
        oldString: str(input.oldString),
        newString: str(input.newString),
        replaceAll: typeof input.replaceAll === 'boolean' ? input.replaceAll : undefined,
        structuredPatch: hunks,
        linesAdded: counts?.linesAdded,
        linesRemoved: counts?.linesRemoved,
      }));
      break;
    }
    case 'grep': {
      // `Found N matches` then, per file, `<path>:` and its `  Line N: text` lines.
      const files = text
        .split('\n')
        .filter((l) => l.endsWith(':') && !l.startsWith(' ') && !l.startsWith('Found '))
        .map((l) => l.slice(0, -1));
      typed = buildTypedResult('grep', call.name, () => ({
        mode: 'content',
        filenames: files,
        content: text,
        numFiles: files.length,
        numMatches: num(metadata.matches),
      }));
      break;
    }
    case 'glob': {
      const files = text === '' || /^No files found/.test(text) ? [] : text.split('\n').filter((l) => l !== '');
      typed = buildTypedResult('glob', call.name, () => ({
        filenames: files,
        numFiles: num(metadata.count) ?? files.length,
        truncated: typeof metadata.truncated === 'boolean' ? metadata.truncated : undefined,
      }));
      break;
    }
    case 'ls':
      typed = buildTypedResult('ls', call.name, () => ({ listing: text }));
      break;
    case 'web-fetch':
      typed = buildTypedResult('web-fetch', call.name, () => ({ url: str(input.url), result: text }));
      break;
    case 'agent':
      typed = buildTypedResult('agent', call.name, () => ({
        status: 'completed',
        agentId: str(metadata.sessionId),
        agentType: str(input.subagent_type),
        description: str(input.description),
        prompt: str(input.prompt),
        text: taskResultOf(text),
      }));
      break;
    case 'mcp':
      typed = mcp === undefined ? undefined : mcpTyped(call.name, mcp, text);
      break;
    default:
      break;
  }
  return toolResultOf(raw, {
    typed: typed ?? unknownTypedResult(call.name, raw.content, raw.toolUseResult),
    error: undefined,
    images: imagesOf(raw.content),
  });
}

/** The numbered lines of a `read` output (the whole text as line 1… when it has none). */
function readLinesOf(text: string): { number: number; text: string }[] {
  const body = /<content>\n([\s\S]*?)\n*(?:\(End of file[^\n]*\)\n)?<\/content>/.exec(text)?.[1];
  if (body === undefined) return text.split('\n').map((line, index) => ({ number: index + 1, text: line }));
  const out: { number: number; text: string }[] = [];
  for (const line of body.split('\n')) {
    const match = READ_LINE.exec(line);
    if (match !== null) out.push({ number: Number(match[1]), text: match[2] ?? '' });
  }
  return out;
}

/** The subagent's answer inside `<task …><task_result>…</task_result></task>`; the text itself otherwise. */
function taskResultOf(text: string): string {
  return /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(text)?.[1] ?? text;
}

function mcpTyped(name: string, mcp: { server: string; tool: string }, text: string): TypedResult | undefined {
  return buildTypedResult('mcp', name, () => ({
    server: mcp.server,
    tool: mcp.tool,
    text,
    blocks: [{ type: 'text', text }],
  }));
}
