import { isRecord, num, str } from '../../internal/guards.js';
import { compactInput } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';
import { kindOfOpenCodeTool } from './tool-names.js';

/**
 * OpenCode's tool arguments under the shared names of `CallInput`: `command`/`description`, `filePath`, `offset`/
 * `limit`, `content`, `oldString`/`newString`/`replaceAll`, `pattern`, `path`, `include` (grep's file filter), `url`,
 * `prompt`/`subagent_type`/`description`. Never throws; a non-object input gives `{}`.
 */
export function typeOpenCodeInput(canonicalName: string, input: unknown): CallInput {
  if (!isRecord(input)) return {};
  const i = input;
  switch (kindOfOpenCodeTool(canonicalName)) {
    case 'bash':
      return compactInput({ command: str(i.command), description: str(i.description) });
    case 'read':
      return compactInput({ filePath: str(i.filePath), offset: num(i.offset), limit: num(i.limit) });
    case 'write':
      return compactInput({ filePath: str(i.filePath), content: str(i.content) });
    case 'edit':
      return compactInput({
        filePath: str(i.filePath),
        oldString: str(i.oldString),
        newString: str(i.newString),
        replaceAll: typeof i.replaceAll === 'boolean' ? i.replaceAll : undefined,
      });
    case 'grep':
      return compactInput({ pattern: str(i.pattern), path: str(i.path), glob: str(i.include) });
    case 'glob':
      return compactInput({ pattern: str(i.pattern), path: str(i.path) });
    case 'web-fetch':
      return compactInput({ url: str(i.url) });
    case 'web-search':
      return compactInput({ query: str(i.query) });
    case 'agent':
      return compactInput({ prompt: str(i.prompt), agentType: str(i.subagent_type), description: str(i.description) });
    default:
      return {};
  }
}
