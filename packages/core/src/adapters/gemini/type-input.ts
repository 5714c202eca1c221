import { bool, isRecord, num, str } from '../../internal/guards.js';
import { compactInput, inputTodos, lineSpan } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';

/**
 * Gemini CLI's tool arguments under the shared names of `CallInput`, by canonical tool name (0.20 and 0.61 names
 * and both argument spellings: `path`/`dir_path`, `offset`+`limit`/`start_line`+`end_line`, `include`/
 * `include_pattern`). Never throws; a non-object input gives `{}`.
 */
export function typeGeminiInput(canonicalName: string, input: unknown): CallInput {
  if (!isRecord(input)) return {};
  const i = input;
  const filePath = str(i.file_path) ?? str(i.absolute_path) ?? str(i.path);
  const folder = str(i.dir_path) ?? str(i.path);
  switch (canonicalName) {
    case 'run_shell_command':
      return compactInput({
        command: str(i.command),
        description: str(i.description),
        background: bool(i.is_background),
      });
    case 'read_file': {
      // 0.20 reads from a 0-based line offset, 0.61 from a first line: the shared `offset` is the first line.
      const offset = num(i.offset);
      const startLine = num(i.start_line);
      return compactInput({
        filePath,
        offset: offset === undefined ? startLine : offset + 1,
        limit: num(i.limit) ?? lineSpan(startLine, num(i.end_line)),
      });
    }
    case 'write_file':
      return compactInput({ filePath, content: str(i.content) });
    case 'replace':
      return compactInput({
        filePath,
        oldString: str(i.old_string),
        newString: str(i.new_string),
        description: str(i.instruction),
      });
    case 'glob':
      return compactInput({ pattern: str(i.pattern), path: folder });
    case 'grep_search':
      return compactInput({ pattern: str(i.pattern), path: folder, glob: str(i.include) ?? str(i.include_pattern) });
    case 'list_directory':
      return compactInput({ path: folder });
    case 'google_web_search':
      return compactInput({ query: str(i.query) });
    case 'web_fetch': {
      // The tool takes a prompt naming the URLs; the first one is what it fetches.
      const prompt = str(i.prompt);
      return compactInput({
        prompt,
        url: prompt === undefined ? undefined : /https?:\/\/[^\s"'<>)]+/.exec(prompt)?.[0],
      });
    }
    case 'write_todos':
      return compactInput({ todos: inputTodos(i.todos, ['description']) });
    case 'invoke_agent':
      return compactInput({ prompt: str(i.prompt), agentType: str(i.agent_name) });
    case 'codebase_investigator':
      return compactInput({ prompt: str(i.objective) });
    case 'save_memory':
      return compactInput({ content: str(i.fact) });
    default:
      return {};
  }
}
