import { bool, isRecord, num, str } from '../../../internal/guards.js';
import type { ResultContent } from '../../../model/content.js';
import { parseMcpToolName } from '../tool-names.js';
import {
  lineCount,
  numericRecord,
  numOrNull,
  parseNumberedLines,
  patchCounts,
  strArray,
  stripSystemReminders,
  tagValue,
  tryJson,
} from './text.js';
import type { DataKind } from './typed-result.js';

/** What a per-tool parser sees. */
export interface ParseContext {
  /** Tool name as written. */
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly content: ResultContent;
  /** Plain text of the content. */
  readonly text: string;
  /** `toolUseResult` when it is an object or array; undefined when absent or a string. */
  readonly structured: unknown;
  /** `toolUseResult` when it is a string (LS output, or an odd success). */
  readonly turString: string | undefined;
}

/** Builds a kind's `data` (not yet validated); undefined when the result does not have this tool's shape. */
export type DataParser = (ctx: ParseContext) => unknown;

/** Canonical tool name → kind. Renamed tools are canonicalized before the lookup. */
export const toolKinds: Readonly<Record<string, DataKind>> = {
  Bash: 'bash',
  PowerShell: 'bash',
  TaskOutput: 'task-output',
  TaskStop: 'task-stop',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'multi-edit',
  NotebookEdit: 'notebook-edit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  TodoWrite: 'todo-write',
  Agent: 'agent',
  WebFetch: 'web-fetch',
  WebSearch: 'web-search',
  AskUserQuestion: 'ask-user-question',
  ExitPlanMode: 'exit-plan-mode',
  EnterPlanMode: 'enter-plan-mode',
  Skill: 'skill',
  LSP: 'lsp',
  ListMcpResourcesTool: 'list-mcp-resources',
  ReadMcpResourceTool: 'read-mcp-resource',
  ReadMcpResourceDirTool: 'read-mcp-resource-dir',
  CronCreate: 'cron-create',
  CronDelete: 'cron-delete',
  CronList: 'cron-list',
  TaskCreate: 'task-create',
  TaskGet: 'task-get',
  TaskUpdate: 'task-update',
  TaskList: 'task-list',
  EnterWorktree: 'enter-worktree',
  ExitWorktree: 'exit-worktree',
  Monitor: 'monitor',
  Workflow: 'workflow',
  SendMessage: 'send-message',
  ToolSearch: 'tool-search',
  ListAgents: 'list-agents',
  ReportFindings: 'report-findings',
  ScheduleWakeup: 'schedule-wakeup',
};

/** The kind for a tool: `mcp` for `mcp__*`, the table entry otherwise; undefined for tools not known. */
export function kindOfTool(canonicalName: string): DataKind | undefined {
  if (canonicalName.startsWith('mcp__')) return 'mcp';
  return Object.hasOwn(toolKinds, canonicalName) ? toolKinds[canonicalName] : undefined;
}

const rec = (value: unknown): Record<string, unknown> | undefined => (isRecord(value) ? value : undefined);

function hunks(
  value: unknown,
): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((h) => ({
    oldStart: num(h.oldStart) ?? 0,
    oldLines: num(h.oldLines) ?? 0,
    newStart: num(h.newStart) ?? 0,
    newLines: num(h.newLines) ?? 0,
    lines: strArray(h.lines) ?? [],
  }));
}

const bash: DataParser = (ctx) => {
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

const taskOutput: DataParser = (ctx) => {
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

const taskStop: DataParser = (ctx) => {
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

function notebookCells(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((cell) => ({
    cellId: str(cell.cell_id) ?? str(cell.cellId) ?? str(cell.id),
    cellType: str(cell.cellType) ?? str(cell.cell_type) ?? 'code',
    source: Array.isArray(cell.source) ? (strArray(cell.source) ?? []).join('') : (str(cell.source) ?? ''),
    language: str(cell.language),
    executionCount: numOrNull(cell.execution_count),
    outputs: Array.isArray(cell.outputs) ? cell.outputs : undefined,
  }));
}

const read: DataParser = (ctx) => {
  const filePathInput = str(ctx.input.file_path);
  const tur = rec(ctx.structured);
  if (tur) {
    const file = rec(tur.file);
    if (!file) return undefined;
    const filePath = str(file.filePath) ?? filePathInput;
    switch (tur.type) {
      case 'text': {
        const content = str(file.content) ?? '';
        return {
          variant: 'text',
          filePath,
          content,
          startLine: num(file.startLine) ?? 1,
          numLines: num(file.numLines) ?? lineCount(content),
          totalLines: num(file.totalLines),
          truncated: bool(file.truncatedByTokenCap),
        };
      }
      case 'image':
        return {
          variant: 'image',
          filePath,
          mediaType: str(file.type) ?? 'image/png',
          originalSize: num(file.originalSize),
          dimensions: numericRecord(file.dimensions),
        };
      case 'notebook':
        return { variant: 'notebook', filePath, cells: notebookCells(file.cells) };
      case 'pdf':
        return { variant: 'pdf', filePath, originalSize: num(file.originalSize) };
      case 'parts':
        return {
          variant: 'parts',
          filePath,
          originalSize: num(file.originalSize),
          count: num(file.count),
          outputDir: str(file.outputDir),
        };
      case 'file_unchanged':
        return { variant: 'file_unchanged', filePath };
      default:
        return undefined;
    }
  }
  // From the content.
  if (typeof ctx.content !== 'string') {
    const image = ctx.content.find((b) => b.kind === 'image');
    if (image) return { variant: 'image', filePath: filePathInput, mediaType: image.mediaType };
  }
  const text = ctx.text;
  const jsonImage = tryJson(text);
  if (Array.isArray(jsonImage) && isRecord(jsonImage[0]) && jsonImage[0].type === 'image') {
    const source = rec(jsonImage[0].source);
    return { variant: 'image', filePath: filePathInput, mediaType: str(source?.media_type) ?? 'image/png' };
  }
  if (filePathInput === undefined) return undefined;
  if (/^File unchanged since last read/i.test(text.trim()))
    return { variant: 'file_unchanged', filePath: filePathInput };
  if (/^PDF file read: /.test(text)) return { variant: 'pdf', filePath: filePathInput };
  const parts = /^PDF pages extracted: (\d+) page/.exec(text);
  if (parts) return { variant: 'parts', filePath: filePathInput, count: Number(parts[1]) };
  if (/<cell id="/.test(text)) {
    const cells: unknown[] = [];
    const re = /<cell id="([^"]*)">(?:<cell_type>(\w+)<\/cell_type>)?([\s\S]*?)<\/cell id="\1">/g;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      cells.push({ cellId: m[1], cellType: m[2] ?? 'code', source: m[3] ?? '' });
    }
    return { variant: 'notebook', filePath: filePathInput, cells };
  }
  if (/Warning: the file exists but the contents are empty/.test(text) && stripSystemReminders(text) === '') {
    return { variant: 'text', filePath: filePathInput, content: '', startLine: 1, numLines: 0 };
  }
  const numbered = parseNumberedLines(text);
  if (!numbered) return undefined;
  return {
    variant: 'text',
    filePath: filePathInput,
    content: numbered.lines.join('\n'),
    startLine: numbered.startLine,
    numLines: numbered.lines.length,
  };
};

const write: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const operation = tur.type === 'create' || tur.type === 'update' ? tur.type : undefined;
    const filePath = str(tur.filePath);
    if (!operation || filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    const content = str(tur.content);
    const counts =
      operation === 'create' && structuredPatch.length === 0
        ? { linesAdded: lineCount(content ?? ''), linesRemoved: 0 }
        : patchCounts(structuredPatch);
    return {
      filePath,
      operation,
      content,
      structuredPatch,
      originalFile: tur.originalFile === null ? null : str(tur.originalFile),
      userModified: bool(tur.userModified),
      ...counts,
    };
  }
  const text = ctx.text;
  const created = /^File created successfully at: (.+?)(?: \(file state is current[^)]*\))?$/m.exec(text);
  const content = str(ctx.input.content);
  if (created) {
    return {
      filePath: created[1],
      operation: 'create',
      content,
      structuredPatch: [],
      linesAdded: content === undefined ? undefined : lineCount(content),
      linesRemoved: content === undefined ? undefined : 0,
    };
  }
  const updated = /^The file (.+?) has been updated/.exec(text);
  if (updated) return { filePath: updated[1], operation: 'update', content, structuredPatch: [] };
  return undefined;
};

const edit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filePath = str(tur.filePath);
    if (filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    return {
      filePath,
      oldString: str(tur.oldString),
      newString: str(tur.newString),
      replaceAll: bool(tur.replaceAll),
      userModified: bool(tur.userModified),
      originalFile: tur.originalFile === null ? null : str(tur.originalFile),
      structuredPatch,
      ...patchCounts(structuredPatch),
    };
  }
  const text = ctx.text;
  const updated = /^The file (.+?) has been updated/.exec(text);
  const replacedAll = /^All occurrences of /.test(text);
  if (!updated && !replacedAll) return undefined;
  return {
    filePath: updated?.[1] ?? str(ctx.input.file_path),
    oldString: str(ctx.input.old_string),
    newString: str(ctx.input.new_string),
    replaceAll: bool(ctx.input.replace_all) ?? (replacedAll ? true : undefined),
    structuredPatch: [],
  };
};

function editList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((e) => ({
    oldString: str(e.old_string) ?? str(e.oldString) ?? '',
    newString: str(e.new_string) ?? str(e.newString) ?? '',
    replaceAll: bool(e.replace_all) ?? bool(e.replaceAll),
  }));
}

const multiEdit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filePath = str(tur.filePath);
    if (filePath === undefined) return undefined;
    const structuredPatch = hunks(tur.structuredPatch);
    const original = tur.originalFileContents ?? tur.originalFile;
    return {
      filePath,
      edits: editList(tur.edits),
      originalFile: original === null ? null : str(original),
      structuredPatch,
      userModified: bool(tur.userModified),
      ...patchCounts(structuredPatch),
    };
  }
  const applied = /^Applied \d+ edits? to (.+?):/.exec(ctx.text);
  if (!applied) return undefined;
  return { filePath: applied[1], edits: editList(ctx.input.edits), structuredPatch: [] };
};

const notebookEdit: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (typeof tur.new_source !== 'string' && typeof tur.edit_mode !== 'string') return undefined;
    const error = str(tur.error);
    return {
      notebookPath: str(tur.notebook_path) ?? str(ctx.input.notebook_path),
      cellId: str(tur.cell_id),
      cellType: str(tur.cell_type),
      language: str(tur.language),
      editMode: str(tur.edit_mode),
      newSource: str(tur.new_source) ?? '',
      oldSource: str(tur.old_source),
      error: error === '' ? undefined : error,
    };
  }
  const match = /^(Updated|Inserted|Deleted) cell (\S+)(?: with ([\s\S]*))?$/.exec(ctx.text);
  if (!match) return undefined;
  const editMode = match[1] === 'Updated' ? 'replace' : match[1] === 'Inserted' ? 'insert' : 'delete';
  return {
    notebookPath: str(ctx.input.notebook_path),
    cellId: match[2],
    cellType: str(ctx.input.cell_type),
    editMode,
    newSource: match[3] ?? str(ctx.input.new_source) ?? '',
  };
};

const glob: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filenames = strArray(tur.filenames);
    if (!filenames) return undefined;
    return {
      filenames,
      numFiles: num(tur.numFiles) ?? filenames.length,
      durationMs: num(tur.durationMs),
      truncated: bool(tur.truncated),
      totalMatches: num(tur.totalMatches),
    };
  }
  const text = ctx.text.trim();
  if (text === 'No files found') return { filenames: [], numFiles: 0 };
  const lines = text.split('\n').filter((l) => l !== '');
  const truncated = lines.some((l) => l.startsWith('(Results are truncated'));
  const filenames = lines.filter((l) => !l.startsWith('(Results are truncated'));
  return { filenames, numFiles: filenames.length, truncated: truncated || undefined };
};

const grep: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filenames = strArray(tur.filenames);
    if (!filenames) return undefined;
    return {
      mode: str(tur.mode) ?? 'files_with_matches',
      filenames,
      content: str(tur.content),
      numFiles: num(tur.numFiles) ?? filenames.length,
      numLines: num(tur.numLines),
      numMatches: num(tur.numMatches),
      appliedLimit: num(tur.appliedLimit),
      appliedOffset: num(tur.appliedOffset),
      totalFiles: num(tur.totalFiles),
      totalLines: num(tur.totalLines),
    };
  }
  const mode = str(ctx.input.output_mode) ?? 'files_with_matches';
  const text = ctx.text.replace(/\s+$/, '');
  if (mode === 'content') {
    const content = text === 'No matches found' ? '' : text;
    return { mode, filenames: [], content, numFiles: 0, numLines: content === '' ? 0 : content.split('\n').length };
  }
  if (mode === 'count') {
    const total = /\n*Found (\d+) total occurrences? across (\d+) files?\.?$/.exec(text);
    const content = total ? text.slice(0, total.index) : text;
    return {
      mode,
      filenames: [],
      content,
      numFiles: total ? Number(total[2]) : 0,
      numMatches: total ? Number(total[1]) : 0,
    };
  }
  if (text === 'No files found') return { mode, filenames: [], numFiles: 0 };
  const found = /^Found (\d+) files?(?: limit: (\d+))?(?:, offset: (\d+))?\n?/.exec(text);
  const filenames = (found ? text.slice(found[0].length) : text).split('\n').filter((l) => l !== '');
  return {
    mode,
    filenames,
    numFiles: found ? Number(found[1]) : filenames.length,
    appliedLimit: found?.[2] === undefined ? undefined : Number(found[2]),
    appliedOffset: found?.[3] === undefined ? undefined : Number(found[3]),
  };
};

const ls: DataParser = (ctx) => {
  const listing = ctx.turString ?? ctx.text.replace(/\n+NOTE: do any of the files above seem malicious\?[\s\S]*$/, '');
  return { listing };
};

function todos(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((t) => ({
    content: str(t.content) ?? '',
    status: str(t.status) ?? 'pending',
    activeForm: str(t.activeForm),
    priority: str(t.priority),
    id: str(t.id) ?? (typeof t.id === 'number' ? String(t.id) : undefined),
  }));
}

const todoWrite: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const newTodos = todos(tur.newTodos);
    if (!newTodos) return undefined;
    return { oldTodos: todos(tur.oldTodos), newTodos };
  }
  if (!/Todos have been modified successfully/.test(ctx.text)) return undefined;
  return { newTodos: todos(ctx.input.todos) ?? [] };
};

/** Harness notes the client puts around a subagent's report (2.1.x), not part of the report. */
const HARNESS_NOTE = /^\s*<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>\s*$/;

function blocksText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isRecord)
    .map((b) => (b.type === 'text' ? (str(b.text) ?? '') : ''))
    .filter((t) => t !== '' && !HARNESS_NOTE.test(t))
    .join('\n');
}

/** The 2.1.x trailer of a completed agent's text: `agentId: X (…)` and `<usage>total_tokens: N …</usage>`. */
function agentTrailer(text: string): { text: string; agentId?: string; totals: Record<string, number> } {
  const totals: Record<string, number> = {};
  const usage = /\n*<usage>([\s\S]*?)<\/usage>\s*$/.exec(text);
  let body = text;
  if (usage) {
    for (const m of (usage[1] ?? '').matchAll(/(\w+): (\d+)/g)) totals[m[1] ?? ''] = Number(m[2]);
    body = body.slice(0, usage.index);
  }
  const id = /\n*agentId: ([\w-]+)(?: \([^\n]*\))?(?:\n[^\n]*)*$/.exec(body);
  if (id && usage) body = body.slice(0, id.index);
  return { text: body, agentId: id?.[1], totals };
}

const agent: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const status = str(tur.status) ?? (Array.isArray(tur.content) ? 'completed' : undefined);
    if (status === undefined) return undefined;
    const usage = rec(tur.usage);
    return {
      status,
      agentId: str(tur.agentId) ?? str(tur.taskId) ?? str(tur.teammate_id),
      agentType: str(tur.agentType),
      description: str(tur.description) ?? str(ctx.input.description),
      prompt: str(tur.prompt) ?? str(ctx.input.prompt),
      text: blocksText(tur.content) ?? str(tur.message) ?? ctx.text,
      totalTokens: num(tur.totalTokens),
      totalToolUseCount: num(tur.totalToolUseCount),
      totalDurationMs: num(tur.totalDurationMs),
      outputFile: str(tur.outputFile),
      resolvedModel: str(tur.resolvedModel),
      usage: usage && {
        inputTokens: num(usage.input_tokens),
        outputTokens: num(usage.output_tokens),
        cacheCreationInputTokens: num(usage.cache_creation_input_tokens),
        cacheReadInputTokens: num(usage.cache_read_input_tokens),
      },
    };
  }
  const launched = /^Async agent launched successfully/.test(ctx.text);
  const trailer = launched ? undefined : agentTrailer(ctx.text);
  return {
    status: launched ? 'async_launched' : 'completed',
    agentId: trailer?.agentId ?? /agentId: ([\w-]+)/.exec(ctx.text)?.[1],
    agentType: str(ctx.input.subagent_type),
    description: str(ctx.input.description),
    prompt: str(ctx.input.prompt),
    text: trailer?.text ?? ctx.text,
    totalTokens: trailer?.totals.total_tokens,
    totalToolUseCount: trailer?.totals.tool_uses,
    totalDurationMs: trailer?.totals.duration_ms,
  };
};

const webFetch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (tur.detachedToolCall === true) return undefined;
    return {
      url: str(tur.url) ?? str(ctx.input.url),
      code: num(tur.code),
      codeText: str(tur.codeText),
      bytes: num(tur.bytes),
      durationMs: num(tur.durationMs),
      result: str(tur.result) ?? ctx.text,
    };
  }
  return { url: str(ctx.input.url), result: ctx.text };
};

function linkList(value: unknown): { title: string; url: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((l) => ({ title: str(l.title) ?? '', url: str(l.url) ?? '' }));
}

const webSearch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.results)) return undefined;
    const links: { title: string; url: string }[] = [];
    const texts: string[] = [];
    for (const item of tur.results) {
      if (typeof item === 'string') texts.push(item);
      else if (isRecord(item)) links.push(...linkList(item.content));
    }
    return {
      query: str(tur.query) ?? str(ctx.input.query) ?? '',
      links,
      texts,
      durationSeconds: num(tur.durationSeconds),
      searchCount: num(tur.searchCount),
    };
  }
  if (typeof ctx.content !== 'string' && ctx.content.some((b) => b.kind === 'search-result')) {
    const links: { title: string; url: string }[] = [];
    const texts: string[] = [];
    for (const block of ctx.content) {
      if (block.kind === 'search-result') {
        links.push({ title: block.title, url: block.source });
        if (block.text !== '') texts.push(block.text);
      } else if (block.kind === 'text' && block.text.trim() !== '') texts.push(block.text);
    }
    return { query: str(ctx.input.query) ?? '', links, texts };
  }
  const text = ctx.text;
  const header = /^Web search results for query: "([\s\S]*?)"\n/.exec(text);
  if (!header) return undefined;
  const links: { title: string; url: string }[] = [];
  const texts: string[] = [];
  for (const part of text.slice(header[0].length).split(/\n\n+/)) {
    const trimmed = part.trim();
    if (trimmed === '' || trimmed.startsWith('REMINDER:')) continue;
    if (trimmed.startsWith('Links: ')) links.push(...linkList(tryJson(trimmed.slice('Links: '.length))));
    else texts.push(trimmed);
  }
  return { query: header[1] ?? '', links, texts };
};

function questionList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((q) => ({
    question: str(q.question) ?? '',
    header: str(q.header),
    multiSelect: bool(q.multiSelect),
    options: Array.isArray(q.options)
      ? q.options.filter(isRecord).map((o) => ({ label: str(o.label) ?? '', description: str(o.description) }))
      : [],
  }));
}

/** `"Q"="A", "Q2"="A2"` pairs of the AskUserQuestion result text. */
export function parseAnswerPairs(text: string): Record<string, string> {
  const answers: Record<string, string> = {};
  const re = /"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) answers[m[1] ?? ''] = m[2] ?? '';
  return answers;
}

const askUserQuestion: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const raw = rec(tur.answers);
    if (!raw) return undefined;
    const answers: Record<string, string> = {};
    for (const [q, a] of Object.entries(raw)) {
      if (typeof a === 'string') answers[q] = a;
      else if (Array.isArray(a)) answers[q] = (strArray(a) ?? []).join(', ');
    }
    return { questions: questionList(tur.questions ?? ctx.input.questions), answers };
  }
  const prefix = /^User has answered your questions?: /.exec(ctx.text);
  if (!prefix) return undefined;
  return { questions: questionList(ctx.input.questions), answers: parseAnswerPairs(ctx.text.slice(prefix[0].length)) };
};

const exitPlanMode: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  const text = ctx.text;
  const rejected = /doesn't want to proceed|rejected/i.test(text) && !/approved/i.test(text);
  if (tur) {
    if (!('plan' in tur) && !('isAgent' in tur)) return undefined;
    return {
      plan: str(tur.plan) ?? str(ctx.input.plan) ?? null,
      approved: !rejected,
      filePath: str(tur.filePath),
      isAgent: bool(tur.isAgent),
    };
  }
  const approved = /User has approved (?:your|the) plan/.test(text);
  if (!approved && !rejected) return undefined;
  const planSection = /\n## Approved Plan:\n([\s\S]*)$/.exec(text);
  return {
    plan: str(ctx.input.plan) ?? planSection?.[1] ?? null,
    approved,
    filePath: /Your plan has been saved to: (.+)/.exec(text)?.[1],
  };
};

const enterPlanMode: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  const message = str(tur?.message) ?? ctx.text.split('\n\n')[0];
  if (tur && str(tur.message) === undefined) return undefined;
  return { message };
};

const skill: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const commandName = str(tur.commandName);
    if (commandName === undefined) return undefined;
    return {
      commandName,
      success: bool(tur.success),
      status: str(tur.status),
      agentId: str(tur.agentId),
      result: str(tur.result),
      allowedTools: strArray(tur.allowedTools),
      model: str(tur.model),
    };
  }
  const text = ctx.text;
  const launching = /^Launching (?:skill|command|slash command): \/?(\S.*)$/m.exec(text);
  if (launching) return { commandName: (launching[1] ?? '').trim(), success: true };
  const forked = /^Skill "(.+?)" completed \(forked execution\)\.?(?:\n\nResult:\n([\s\S]*))?/.exec(text);
  if (forked) return { commandName: forked[1], success: true, status: 'forked', result: forked[2] };
  return undefined;
};

const lsp: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const operation = str(tur.operation);
    if (operation === undefined) return undefined;
    return {
      operation,
      filePath: str(tur.filePath),
      result: str(tur.result) ?? ctx.text,
      resultCount: num(tur.resultCount),
      fileCount: num(tur.fileCount),
    };
  }
  const operation = str(ctx.input.operation);
  if (operation === undefined) return undefined;
  return { operation, filePath: str(ctx.input.filePath), result: ctx.text };
};

function resourceList(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((r) => ({
    uri: str(r.uri) ?? '',
    name: str(r.name),
    title: str(r.title),
    server: str(r.server),
    mimeType: str(r.mimeType),
    description: str(r.description),
  }));
}

const listMcpResources: DataParser = (ctx) => {
  const resources = resourceList(ctx.structured) ?? resourceList(tryJson(ctx.text));
  return resources && { resources };
};

const readMcpResource: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur || !Array.isArray(tur.contents)) return undefined;
  return {
    contents: tur.contents.filter(isRecord).map((c) => ({
      uri: str(c.uri),
      mimeType: str(c.mimeType),
      text: str(c.text),
      blobSavedTo: str(c.blobSavedTo),
    })),
    error: str(tur.error),
  };
};

const readMcpResourceDir: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur || !Array.isArray(tur.resources)) return undefined;
  return {
    resources: tur.resources
      .filter(isRecord)
      .map((r) => ({ uri: str(r.uri) ?? '', name: str(r.name), mimeType: str(r.mimeType) })),
    error: str(tur.error),
  };
};

const cronCreate: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const id = str(tur.id);
    if (id === undefined) return undefined;
    return {
      id,
      humanSchedule: str(tur.humanSchedule),
      recurring: bool(tur.recurring),
      durable: bool(tur.durable),
      nextFireAt: num(tur.nextFireAt),
      maxAgeMs: num(tur.maxAgeMs),
    };
  }
  const match = /^Scheduled (recurring|one-shot|one-time)? ?job (\S+) \((.+?)\)/.exec(ctx.text);
  if (!match) return undefined;
  return { id: match[2], humanSchedule: match[3], recurring: match[1] === 'recurring' };
};

const cronDelete: DataParser = (ctx) => {
  const id = str(rec(ctx.structured)?.id) ?? /^Cancelled job (\S+?)\.?$/m.exec(ctx.text)?.[1];
  return id === undefined ? undefined : { id };
};

const cronList: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.jobs)) return undefined;
    return {
      jobs: tur.jobs.filter(isRecord).map((j) => ({
        id: str(j.id) ?? '',
        cron: str(j.cron),
        humanSchedule: str(j.humanSchedule),
        prompt: str(j.prompt),
        recurring: bool(j.recurring),
        durable: bool(j.durable),
        nextFireAt: num(j.nextFireAt),
      })),
    };
  }
  const jobs: unknown[] = [];
  for (const line of ctx.text.split('\n')) {
    const m = /^(\S+) — (.+?)(?: \((recurring|one-shot)\))?(?: \[[^\]]*\])?(?:, next run .*?)?: (.*)$/.exec(line);
    if (m)
      jobs.push({
        id: m[1],
        humanSchedule: m[2],
        recurring: m[3] === undefined ? undefined : m[3] === 'recurring',
        prompt: m[4],
      });
  }
  if (jobs.length === 0 && !/^No (scheduled )?jobs/i.test(ctx.text.trim())) return undefined;
  return { jobs };
};

const taskCreate: DataParser = (ctx) => {
  const task = rec(rec(ctx.structured)?.task);
  if (task) {
    const taskId = str(task.id);
    if (taskId === undefined) return undefined;
    return { taskId, subject: str(task.subject) ?? '', description: str(task.description) };
  }
  if (ctx.structured !== undefined) return undefined;
  const m = /^Task #(\S+) created successfully: (.*)$/m.exec(ctx.text);
  return m ? { taskId: m[1], subject: m[2], description: str(ctx.input.description) } : undefined;
};

const taskGet: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!('task' in tur)) return undefined;
    const task = rec(tur.task);
    if (!task) return { task: null };
    return {
      task: {
        id: str(task.id) ?? '',
        subject: str(task.subject) ?? '',
        description: str(task.description),
        status: str(task.status),
        blocks: strArray(task.blocks),
        blockedBy: strArray(task.blockedBy),
      },
    };
  }
  const text = ctx.text;
  if (/^Task not found/i.test(text.trim())) return { task: null };
  const head = /^Task #(\S+): (.*)$/m.exec(text);
  if (!head) return undefined;
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1];
  const ids = (value: string | undefined) => value?.split(/,\s*/).map((v) => v.replace(/^#/, ''));
  return {
    task: {
      id: head[1] ?? '',
      subject: head[2] ?? '',
      status: field('Status'),
      description: field('Description'),
      blocks: ids(field('Blocks')),
      blockedBy: ids(field('Blocked by')),
    },
  };
};

const taskUpdate: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const success = bool(tur.success);
    if (success === undefined) return undefined;
    const change = rec(tur.statusChange);
    return {
      success,
      taskId: str(tur.taskId) ?? str(ctx.input.taskId) ?? '',
      updatedFields: strArray(tur.updatedFields) ?? [],
      error: str(tur.error),
      statusChange: change && { from: str(change.from) ?? '', to: str(change.to) ?? '' },
    };
  }
  const m = /^Updated task #(\S+) (.*)$/m.exec(ctx.text);
  if (m) return { success: true, taskId: m[1], updatedFields: (m[2] ?? '').split(/,\s*/).filter((f) => f !== '') };
  const taskId = str(ctx.input.taskId);
  if (taskId !== undefined && /not found/i.test(ctx.text)) {
    return { success: false, taskId, updatedFields: [], error: ctx.text.trim() };
  }
  return undefined;
};

const taskList: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.tasks)) return undefined;
    return {
      tasks: tur.tasks.filter(isRecord).map((t) => ({
        id: str(t.id) ?? '',
        subject: str(t.subject) ?? '',
        status: str(t.status) ?? '',
        owner: str(t.owner),
        blockedBy: strArray(t.blockedBy),
      })),
    };
  }
  const tasks: unknown[] = [];
  for (const line of ctx.text.split('\n')) {
    const m = /^#(\S+) \[(\w+)\] (.*)$/.exec(line);
    if (m) tasks.push({ id: m[1], status: m[2], subject: m[3] });
  }
  if (tasks.length === 0 && !/^No tasks/i.test(ctx.text.trim())) return undefined;
  return { tasks };
};

const enterWorktree: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const worktreePath = str(tur.worktreePath);
    if (worktreePath === undefined) return undefined;
    return { worktreePath, worktreeBranch: str(tur.worktreeBranch), message: str(tur.message) ?? ctx.text };
  }
  const m = /worktree at “(.+?)”(?: on branch “(.+?)”)?/.exec(ctx.text);
  return m ? { worktreePath: m[1], worktreeBranch: m[2], message: ctx.text } : undefined;
};

const exitWorktree: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const action = str(tur.action);
    if (action === undefined) return undefined;
    return {
      action,
      originalCwd: str(tur.originalCwd),
      worktreePath: str(tur.worktreePath),
      worktreeBranch: str(tur.worktreeBranch),
      discardedFiles: num(tur.discardedFiles),
      discardedCommits: num(tur.discardedCommits),
      message: str(tur.message) ?? ctx.text,
    };
  }
  const action = str(ctx.input.action);
  if (action === undefined) return undefined;
  return { action, worktreePath: /worktree at “(.+?)”/.exec(ctx.text)?.[1], message: ctx.text };
};

const monitor: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const taskId = str(tur.taskId);
    if (taskId === undefined) return undefined;
    return { taskId, timeoutMs: num(tur.timeoutMs), persistent: bool(tur.persistent) };
  }
  const m = /^Monitor started \(task (\S+?)[,)]/.exec(ctx.text);
  return m ? { taskId: m[1], timeoutMs: num(ctx.input.timeout_ms) } : undefined;
};

const workflow: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (!tur) return undefined;
  const status = str(tur.status);
  if (status === undefined) return undefined;
  return {
    status,
    taskId: str(tur.taskId),
    taskType: str(tur.taskType),
    workflowName: str(tur.workflowName),
    runId: str(tur.runId),
    summary: str(tur.summary),
    transcriptDir: str(tur.transcriptDir),
    scriptPath: str(tur.scriptPath),
    sessionUrl: str(tur.sessionUrl),
    warning: str(tur.warning),
    error: str(tur.error),
  };
};

const sendMessage: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur) return undefined;
  const success = bool(tur.success);
  const message = str(tur.message);
  if (success === undefined || message === undefined) return undefined;
  return { success, message, display: str(tur.display) };
};

const toolSearch: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const matches = strArray(tur.matches);
    if (!matches) return undefined;
    return {
      query: str(tur.query) ?? str(ctx.input.query) ?? '',
      matches,
      totalDeferredTools: num(tur.total_deferred_tools) ?? num(tur.total_mcp_tools),
      pendingMcpServers: strArray(tur.pending_mcp_servers),
    };
  }
  const query = str(ctx.input.query) ?? '';
  if (typeof ctx.content !== 'string') {
    const refs = ctx.content.filter((b) => b.kind === 'tool-reference');
    if (refs.length > 0) return { query, matches: refs.map((b) => b.toolName) };
  }
  if (/^No matching/i.test(ctx.text.trim())) return { query, matches: [] };
  return undefined;
};

const listAgents: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const listing = str(tur.listing);
    if (listing === undefined) return undefined;
    return {
      listing,
      sections: Array.isArray(tur.sections) ? tur.sections : undefined,
      notes: Array.isArray(tur.notes) ? tur.notes : undefined,
    };
  }
  return { listing: ctx.text };
};

function findingList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((f) => ({
    file: str(f.file) ?? '',
    line: num(f.line),
    summary: str(f.summary) ?? '',
    shortSummary: str(f.short_summary),
    failureScenario: str(f.failure_scenario),
    category: str(f.category),
    severity: str(f.severity),
    verdict: str(f.verdict),
    outcome: str(f.outcome),
  }));
}

const reportFindings: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const count = num(tur.count);
    if (count === undefined) return undefined;
    return { count, level: str(tur.level), findings: findingList(tur.findings) };
  }
  const text = ctx.text.trim();
  const m = /^(\d+) findings? reported/.exec(text);
  if (!m && !/^No findings reported/.test(text)) return undefined;
  return { count: m ? Number(m[1]) : 0, level: str(ctx.input.level), findings: findingList(ctx.input.findings) };
};

const scheduleWakeup: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (!tur) return undefined;
  const scheduledFor = num(tur.scheduledFor);
  const clampedDelaySeconds = num(tur.clampedDelaySeconds);
  const wasClamped = bool(tur.wasClamped);
  if (scheduledFor === undefined || clampedDelaySeconds === undefined || wasClamped === undefined) return undefined;
  return {
    scheduledFor,
    clampedDelaySeconds,
    wasClamped,
    stopped: bool(tur.stopped),
    cancelledWakeups: num(tur.cancelledWakeups),
  };
};

const mcp: DataParser = (ctx) => {
  const parsed = parseMcpToolName(ctx.tool) ?? { server: '', tool: ctx.tool };
  const blocks: unknown[] = [];
  if (typeof ctx.content === 'string') {
    if (ctx.content !== '') blocks.push({ type: 'text', text: ctx.content });
  } else {
    for (const block of ctx.content) {
      if (block.kind === 'text') blocks.push({ type: 'text', text: block.text });
      else if (block.kind === 'image') blocks.push({ type: 'image', mediaType: block.mediaType });
      else blocks.push({ type: 'other', blockType: block.kind === 'unknown' ? block.type : block.kind });
    }
  }
  return { server: parsed.server, tool: parsed.tool, text: ctx.text, blocks };
};

/** One parser per kind. */
export const dataParsers: Readonly<Record<DataKind, DataParser>> = {
  bash,
  'task-output': taskOutput,
  'task-stop': taskStop,
  read,
  write,
  edit,
  'multi-edit': multiEdit,
  'notebook-edit': notebookEdit,
  glob,
  grep,
  ls,
  'todo-write': todoWrite,
  agent,
  'web-fetch': webFetch,
  'web-search': webSearch,
  'ask-user-question': askUserQuestion,
  'exit-plan-mode': exitPlanMode,
  'enter-plan-mode': enterPlanMode,
  skill,
  lsp,
  'list-mcp-resources': listMcpResources,
  'read-mcp-resource': readMcpResource,
  'read-mcp-resource-dir': readMcpResourceDir,
  'cron-create': cronCreate,
  'cron-delete': cronDelete,
  'cron-list': cronList,
  'task-create': taskCreate,
  'task-get': taskGet,
  'task-update': taskUpdate,
  'task-list': taskList,
  'enter-worktree': enterWorktree,
  'exit-worktree': exitWorktree,
  monitor,
  workflow,
  'send-message': sendMessage,
  'tool-search': toolSearch,
  'list-agents': listAgents,
  'report-findings': reportFindings,
  'schedule-wakeup': scheduleWakeup,
  mcp,
};
