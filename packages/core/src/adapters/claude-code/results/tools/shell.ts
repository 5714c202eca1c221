/** Parsers of the shell tools: Bash/PowerShell, TaskOutput (BashOutput), TaskStop (KillShell), Monitor. */
import { bool, isRecord, num, str } from '../../../../internal/guards.js';
import { patchCounts } from '../../../../model/build-typed-result.js';
import { numOrNull, tagValue, tryJson } from '../text.js';
import { hunks } from './files.js';
import { type DataParser, rec } from './shared.js';

/** The files a command changed as Claude Code 2.1 saw them (`bashEditDiff.files`), each with its hunks; undefined when none. */
function editedFilesOf(value: unknown) {
  const files = rec(value)?.files;
  if (!Array.isArray(files)) return undefined;
  const out = files.filter(isRecord).flatMap((file) => {
    const filePath = str(file.filePath);
    if (filePath === undefined) return [];
    const structuredPatch = hunks(file.hunks ?? file.structuredPatch);
    return [{ filePath, structuredPatch, ...patchCounts(structuredPatch) }];
  });
  return out.length > 0 ? out : undefined;
}

export const bash: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur && (typeof tur.stdout === 'string' || typeof tur.stderr === 'string')) {
    const interrupted = bool(tur.interrupted) ?? false;
    const backgroundTaskId = str(tur.backgroundTaskId);
    const returnCodeInterpretation = str(tur.returnCodeInterpretation);
    return {
      stdout: str(tur.stdout) ?? '',
      stderr: str(tur.stderr) ?? '',
      exitCode: interrupted || backgroundTaskId || returnCodeInterpretation ? undefined : 0,
      interrupted,
      isImage: bool(tur.isImage),
      backgroundTaskId,
      returnCodeInterpretation,
      persistedOutputPath: str(tur.persistedOutputPath),
      persistedOutputSize: num(tur.persistedOutputSize),
      noOutputExpected: bool(tur.noOutputExpected),
      timedOutAfterMs: num(tur.timedOutAfterMs),
      editedFiles: editedFilesOf(tur.bashEditDiff),
    };
  }
  if (tur) return undefined;
  // No toolUseResult (resumed/forked copies, parallel results): the content is the output.
  const text = ctx.text;
  const background = /^Command running in background with ID: ([\w-]+)/.exec(text);
  const persisted = /^<persisted-output>\nOutput too large \([^)]*\)\. Full output saved to: (.+)\n/.exec(text);
  return {
    stdout: text,
    stderr: '',
    exitCode: background ? undefined : 0,
    interrupted: false,
    backgroundTaskId: background?.[1],
    persistedOutputPath: persisted?.[1],
  };
};

export const taskOutput: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur && ('retrieval_status' in tur || 'task' in tur)) {
    const task = rec(tur.task);
    return {
      retrievalStatus: str(tur.retrieval_status),
      taskId: str(task?.task_id),
      taskType: str(task?.task_type),
      status: str(task?.status),
      description: str(task?.description),
      output: str(task?.output) ?? str(task?.result),
      exitCode: numOrNull(task?.exitCode),
      error: str(task?.error),
    };
  }
  if (tur && ('shellId' in tur || 'stdout' in tur)) {
    return {
      taskId: str(tur.shellId),
      command: str(tur.command),
      status: str(tur.status),
      exitCode: numOrNull(tur.exitCode),
      stdout: str(tur.stdout),
      stderr: str(tur.stderr),
      error: str(tur.error),
      timestamp: str(tur.timestamp),
    };
  }
  if (tur) return undefined;
  // Seed 000 BashOutput tags, or TaskOutput tags.
  const text = ctx.text;
  const status = tagValue(text, 'status');
  const retrievalStatus = tagValue(text, 'retrieval_status');
  if (status === undefined && retrievalStatus === undefined) return undefined;
  const exit = tagValue(text, 'exit_code');
  return {
    retrievalStatus,
    taskId: tagValue(text, 'task_id') ?? str(ctx.input.bash_id) ?? str(ctx.input.shell_id) ?? str(ctx.input.task_id),
    taskType: tagValue(text, 'task_type'),
    status,
    exitCode: exit !== undefined && /^-?\d+$/.test(exit.trim()) ? Number(exit.trim()) : undefined,
    output: tagValue(text, 'output'),
    stdout: tagValue(text, 'stdout'),
    stderr: tagValue(text, 'stderr'),
    error: tagValue(text, 'error'),
    timestamp: tagValue(text, 'timestamp'),
  };
};

export const taskStop: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur) return undefined;
  const message = str(tur.message);
  if (message === undefined) return undefined;
  const fromMessage = /^Successfully (?:killed shell|stopped task): (\S+) \(([\s\S]*)\)$/.exec(message);
  return {
    message,
    taskId: str(tur.task_id) ?? str(tur.shell_id) ?? fromMessage?.[1],
    taskType: str(tur.task_type),
    command: str(tur.command) ?? fromMessage?.[2],
  };
};

export const monitor: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const taskId = str(tur.taskId);
    if (taskId === undefined) return undefined;
    return { taskId, timeoutMs: num(tur.timeoutMs), persistent: bool(tur.persistent) };
  }
  const m = /^Monitor started \(task (\S+?)[,)]/.exec(ctx.text);
  return m ? { taskId: m[1], timeoutMs: num(ctx.input.timeout_ms) } : undefined;
};
