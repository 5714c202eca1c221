import { isRecord, num, str } from '../../internal/guards.js';
import {
  buildTypedResult,
  imagesOf,
  lineCount,
  toolResultOf,
  unknownTypedResult,
} from '../../model/build-typed-result.js';
import { resultText } from '../../model/content.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';
import type { TypedResult } from '../../model/typed-result.js';
import { shellExitError } from '../../results/shell-exit.js';
import { classifyCopilotError } from './errors.js';
import { shellOutcomeOf } from './shell.js';
import { canonicalCopilotToolName, kindOfCopilotTool } from './tool-names.js';

/**
 * Type a Copilot CLI result onto the shared kinds. `success: false` is a failed call with the client's message,
 * classified; a shell command that exited non-zero is `success: true` to the client but a failed call here, as Claude
 * Code's Bash (exit code from 1.0.102's `shellExecution.exitCode`, else the output's last line), except exit 1 of a
 * last grep/rg/find.
 */
export function typeCopilotResult(call: RawCall, raw: RawResult): ToolResult {
  const name = canonicalCopilotToolName(call.name);
  const facts = isRecord(raw.toolUseResult) ? raw.toolUseResult : {};
  const text = resultText(raw.content);
  const input = isRecord(call.input) ? call.input : {};
  const mcpServer = str(facts.mcpServerName);
  const shell = shellOutcomeOf(name, call.input, text, facts);
  if (raw.isError && shell?.exit.failed === true && shell.exitCode !== undefined) {
    const error = shellExitError(shell.exitCode, shell.stdout);
    return toolResultOf(raw, { typed: { kind: 'error', tool: call.name, message: text }, error, images: [] });
  }
  if (raw.isError) {
    const error = classifyCopilotError(text);
    const typed: TypedResult =
      mcpServer === undefined
        ? { kind: 'error', tool: call.name, message: text }
        : (mcpTyped(call.name, mcpServer, str(facts.mcpToolName), text) ?? {
            kind: 'error',
            tool: call.name,
            message: text,
          });
    return toolResultOf(raw, { typed, error, images: imagesOf(raw.content) });
  }
  let typed: TypedResult | undefined;
  if (mcpServer !== undefined) typed = mcpTyped(call.name, mcpServer, str(facts.mcpToolName), text);
  else {
    switch (kindOfCopilotTool(name)) {
      case 'bash':
        typed = buildTypedResult('bash', call.name, () => ({
          stdout: shell?.stdout ?? text,
          stderr: '',
          exitCode: shell?.exitCode,
          interrupted: false,
          backgroundTaskId: shell?.background === true ? shell.shellId : undefined,
          returnCodeInterpretation: shell?.exit.interpretation,
        }));
        break;
      case 'task-output':
        typed = buildTypedResult('task-output', call.name, () => ({ taskId: str(input.shellId), output: text }));
        break;
      case 'task-stop':
        typed = buildTypedResult('task-stop', call.name, () => ({ message: text, taskId: str(input.shellId) }));
        break;
      case 'read': {
        const range = Array.isArray(input.view_range) ? input.view_range.map(num) : [];
        typed = buildTypedResult('read', call.name, () => ({
          variant: 'text',
          filePath: str(input.path),
          content: text,
          startLine: range[0] ?? 1,
          numLines: lineCount(text),
        }));
        break;
      }
      case 'write':
        typed = buildTypedResult('write', call.name, () => {
          const content = str(input.file_text);
          return {
            filePath: str(input.path),
            operation: 'create',
            content,
            structuredPatch: [],
            linesAdded: content === undefined ? undefined : lineCount(content),
            linesRemoved: 0,
          };
        });
        break;
      case 'edit':
        typed = buildTypedResult('edit', call.name, () => ({
          filePath: str(input.path),
          operation: 'update',
          oldString: str(input.old_str),
          newString: str(input.new_str),
          structuredPatch: [],
        }));
        break;
      case 'grep': {
        const lines = text === '' || /^No matches found/.test(text) ? [] : text.split('\n').filter((l) => l !== '');
        const mode = str(input.output_mode) ?? 'files_with_matches';
        const files = [...new Set(mode === 'content' ? lines.map((l) => l.split(':')[0] ?? l) : lines)];
        typed = buildTypedResult('grep', call.name, () => ({
          mode,
          filenames: files,
          content: mode === 'content' ? text : undefined,
          numFiles: files.length,
          numLines: mode === 'content' ? lines.length : undefined,
        }));
        break;
      }
      case 'glob': {
        const files = text === '' || /^No files matched/.test(text) ? [] : text.split('\n').filter((l) => l !== '');
        typed = buildTypedResult('glob', call.name, () => ({ filenames: files, numFiles: files.length }));
        break;
      }
      case 'web-fetch':
        typed = buildTypedResult('web-fetch', call.name, () => ({ url: str(input.url), result: text }));
        break;
      case 'agent':
        typed = buildTypedResult('agent', call.name, () => ({
          status: 'completed',
          agentType: str(input.agent_type),
          description: str(input.description),
          prompt: str(input.prompt),
          text,
        }));
        break;
      default:
        break;
    }
  }
  return toolResultOf(raw, {
    typed: typed ?? unknownTypedResult(call.name, raw.content, raw.toolUseResult),
    error: undefined,
    images: imagesOf(raw.content),
  });
}

function mcpTyped(name: string, server: string, tool: string | undefined, text: string): TypedResult | undefined {
  return buildTypedResult('mcp', name, () => ({
    server,
    tool: tool ?? name.slice(server.length + 1),
    text,
    blocks: [{ type: 'text', text }],
  }));
}
