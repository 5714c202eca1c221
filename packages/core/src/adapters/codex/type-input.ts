import { isRecord, num, str } from '../../internal/guards.js';
import { parseApplyPatch } from '../../model/apply-patch.js';
import { compactInput, inputQuestions, inputTodos } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';
import { isDrivePath } from '../../model/drive-path.js';
import { execScriptCalls } from './exec-script.js';
import { patchTextOf } from './patch.js';
import { isScriptCallId } from './script-calls.js';
import { SHELL_TOOLS } from './tool-names.js';

/** Shells whose `-c`/`-lc` script is the command a person reads (`["bash", "-lc", "ls -la"]` → `ls -la`). */
const SHELLS = /(^|\/)(ba|z|da)?sh$/;

/** PowerShell as an argument vector names it (`powershell.exe`, `pwsh`, a path to either). */
const POWERSHELL = /(^|[\\/])(powershell|pwsh)(\.exe)?$/i;

/**
 * A command as one line: a string as written, an argument vector joined (the script of `bash -lc …`, of
 * `powershell.exe -Command …`).
 */
function commandLine(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((part) => typeof part === 'string')) return undefined;
  const [shell, flag, script] = value as string[];
  if (value.length === 3 && shell !== undefined && SHELLS.test(shell) && (flag === '-c' || flag === '-lc')) {
    return script;
  }
  if (shell !== undefined && POWERSHELL.test(shell)) {
    const at = (value as string[]).findIndex((part) => /^-(c|command)$/i.test(part));
    if (at !== -1 && at === value.length - 2) return value[at + 1] as string;
  }
  return (value as string[]).map((part) => (/[\s'"]/.test(part) ? `'${part.replace(/'/g, `'\\''`)}'` : part)).join(' ');
}

/**
 * Codex CLI's tool arguments under the shared names of `CallInput`: shell commands (`cmd`, `command` as a string or
 * an argument vector), `apply_patch` (its file, when it patches one), an `exec` script's literal commands and
 * patches (and a call such a script made: `fromScript`), `update_plan` steps, `view_image`, searches, `spawn_agent` and `request_user_input`. Never throws; a
 * non-object input gives `{}`.
 */
export function typeCodexInput(canonicalName: string, input: unknown, id?: string): CallInput {
  // an MCP call an `exec` script made (`script-calls.ts`): its arguments are the tool's own
  if (id !== undefined && isScriptCallId(id) && canonicalName.startsWith('mcp__')) return { fromScript: true };
  if (!isRecord(input)) return {};
  const i = input;
  const patch = patchTextOf(canonicalName, i);
  if (patch !== undefined) {
    const files = parseApplyPatch(patch);
    return compactInput({ filePath: files.length === 1 ? files[0]?.path : undefined, patch: patch || undefined });
  }
  if (SHELL_TOOLS.has(canonicalName)) {
    const argv = Array.isArray(i.command) ? i.command : Array.isArray(i.cmd) ? i.cmd : [];
    const first = String(argv[0] ?? '');
    // in a Windows folder, PowerShell unless the call named a POSIX shell (Git Bash's `bash -lc …`)
    const powershell = POWERSHELL.test(first) || (isDrivePath(str(i.workdir) ?? '') && !SHELLS.test(first));
    return compactInput({
      command: commandLine(i.cmd) ?? commandLine(i.command) ?? str(i.input),
      shell: powershell ? 'powershell' : undefined,
      timeoutMs: num(i.timeout_ms) ?? num(i.timeout),
      taskId: typeof i.session_id === 'number' ? String(i.session_id) : str(i.session_id),
      stdin: str(i.chars),
    });
  }
  if (canonicalName === 'exec') {
    // a JavaScript script (0.144+): the commands and patches it plainly runs, its files' to the Files page
    const { commands, patches } = execScriptCalls(str(i.input) ?? '');
    return compactInput({
      commands: commands.length > 0 ? commands : undefined,
      patch: patches.length > 0 ? patches.join('\n') : undefined,
    });
  }
  // 0.169 names a collaboration tool `<namespace>.<tool>`: the tool is what it does.
  switch (canonicalName.slice(canonicalName.lastIndexOf('.') + 1)) {
    case 'update_plan':
      return compactInput({ todos: inputTodos(i.plan, ['step']), description: str(i.explanation) });
    case 'view_image':
      return compactInput({ filePath: str(i.path) });
    case 'web_search':
    case 'tool_search': {
      // Every query it ran (a search action holds several as `queries`, the first again as `query`).
      const queries = Array.isArray(i.queries) ? i.queries.filter((q): q is string => typeof q === 'string') : [];
      const all = [...new Set([str(i.query), ...queries].filter((q): q is string => q !== undefined && q !== ''))];
      return compactInput({ query: all.length > 0 ? all.join(' · ') : undefined });
    }
    case 'spawn_agent':
      return compactInput({
        prompt: str(i.message),
        agentType: str(i.agent_type),
        model: str(i.model),
        name: str(i.task_name),
      });
    case 'request_user_input':
      return compactInput({ questions: inputQuestions(i.questions) });
    case 'image_generation':
      return compactInput({ prompt: str(i.prompt) });
    default:
      return {};
  }
}
