import { bool, isRecord, num, str } from '../../internal/guards.js';
import { compactInput, inputQuestions, inputTodos } from '../../model/build-call-input.js';
import type { CallInput, InputEdit } from '../../model/call-input.js';

// `head_limit` too: a search capped by the call was shown as complete where the client writes no `appliedLimit`
// (1.0.x: "1 file" of two that matched)
const GREP_FLAGS = ['-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit'] as const;

function edits(value: unknown): InputEdit[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((e) => {
    const o = isRecord(e) ? e : {};
    const replaceAll = bool(o.replace_all);
    return {
      oldString: str(o.old_string) ?? '',
      newString: str(o.new_string) ?? '',
      ...(replaceAll === undefined ? {} : { replaceAll }),
    };
  });
}

function grepFlags(i: Record<string, unknown>): string[] | undefined {
  // (a head_limit of 0 is no cap: the newer clients' "unlimited")
  const flags = GREP_FLAGS.filter(
    (f) => i[f] !== undefined && i[f] !== false && !(f === 'head_limit' && i[f] === 0),
  ).map((f) => (i[f] === true ? f : `${f} ${String(i[f])}`));
  return flags.length > 0 ? flags : undefined;
}

/**
 * Claude Code's tool arguments (`file_path`, `old_string`, `run_in_background`, …) under the shared names of
 * `CallInput`. Reads every tool's arguments by name, whatever the tool: names mean the same across Claude's tools.
 * Never throws; a non-object input gives `{}`.
 */
export function typeInput(canonicalName: string, input: unknown): CallInput {
  if (!isRecord(input)) return {};
  const i = input;
  const isSkill = canonicalName === 'Skill' || canonicalName === 'SlashCommand';
  return compactInput({
    filePath: str(i.file_path) ?? str(i.notebook_path) ?? str(i.filePath),
    command: str(i.command),
    description: str(i.description),
    timeoutMs: num(i.timeout),
    background: bool(i.run_in_background),
    content: str(i.content),
    oldString: str(i.old_string),
    newString: str(i.new_string),
    replaceAll: bool(i.replace_all),
    edits: edits(i.edits),
    offset: num(i.offset),
    limit: num(i.limit),
    cellId: str(i.cell_id),
    cellType: str(i.cell_type),
    editMode: str(i.edit_mode),
    newSource: str(i.new_source),
    pattern: str(i.pattern),
    path: str(i.path),
    glob: str(i.glob),
    fileType: str(i.type),
    outputMode: str(i.output_mode),
    flags: grepFlags(i),
    query: str(i.query),
    url: str(i.url),
    allowedDomains: Array.isArray(i.allowed_domains) ? i.allowed_domains.map(String) : undefined,
    prompt: str(i.prompt),
    model: str(i.model),
    agentType: str(i.subagent_type),
    todos: inputTodos(i.todos, ['content', 'subject', 'activeForm']),
    questions: inputQuestions(i.questions),
    plan: str(i.plan),
    skillName: isSkill ? (str(i.skill) ?? str(i.command)) : str(i.skill),
    args: str(i.args),
    taskId: str(i.bash_id) ?? str(i.task_id) ?? str(i.shell_id) ?? str(i.taskId),
    subject: str(i.subject),
    schedule: str(i.cron),
    jobId: str(i.id),
    action: str(i.action),
    name: str(i.name),
    operation: str(i.operation),
    line: num(i.line),
    character: num(i.character),
  });
}
