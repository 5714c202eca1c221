import { isRecord, num, str } from '../../internal/guards.js';
import { compactInput } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';
import { kindOfCopilotTool } from './tool-names.js';

/**
 * Copilot CLI's tool arguments under the shared names of `CallInput`: `command`/`description`, `path` (a file for
 * view/create/edit, a folder for grep/glob), `view_range`, `file_text`, `old_str`/`new_str`, `pattern`, `glob`,
 * `output_mode`, `url`, `prompt`/`agent_type`. Never throws; a non-object input gives `{}`.
 */
export function typeCopilotInput(canonicalName: string, input: unknown): CallInput {
  if (!isRecord(input)) return {};
  const i = input;
  switch (kindOfCopilotTool(canonicalName)) {
    case 'bash':
      return compactInput({
        command: str(i.command),
        description: str(i.description),
        shell: canonicalName === 'powershell' ? 'powershell' : undefined,
      });
    case 'read': {
      const range = Array.isArray(i.view_range) ? i.view_range.map(num) : [];
      const [from, to] = range;
      const limit = from !== undefined && to !== undefined && to >= from ? to - from + 1 : undefined;
      return compactInput({ filePath: str(i.path), offset: from, limit });
    }
    case 'write':
      return compactInput({ filePath: str(i.path), content: str(i.file_text) });
    case 'edit':
      return compactInput({ filePath: str(i.path), oldString: str(i.old_str), newString: str(i.new_str) });
    case 'grep':
      return compactInput({
        pattern: str(i.pattern),
        path: str(i.path) ?? (typeof i.paths === 'string' ? i.paths : undefined),
        glob: str(i.glob),
        outputMode: str(i.output_mode),
      });
    case 'glob':
      return compactInput({ pattern: str(i.pattern), path: str(i.path) });
    case 'web-fetch':
      return compactInput({ url: str(i.url) });
    case 'web-search':
      return compactInput({ query: str(i.query) });
    case 'agent':
      return compactInput({ prompt: str(i.prompt), agentType: str(i.agent_type), description: str(i.description) });
    default:
      return {};
  }
}
