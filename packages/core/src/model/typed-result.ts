import { agentKindDescriptions, agentKindSchemas } from './agent-kinds.js';
import { fileKindSchemas, hunkSchema } from './file-kinds.js';
import { taskKindSchemas } from './task-kinds.js';
import { z } from './zod.js';

export { hunkSchema, patchHunkSchema } from './file-kinds.js';

/*
 * The contract between agents and screens: the typed shape of every tool result, defined once as zod schemas,
 * with agent-neutral meaning. Each agent adapter maps its own tools onto these kinds (a kind's name is the
 * first tool that needed it, kept because `show --json` emits it; its description says what it means for any
 * agent). The adapters validate what they build against these schemas, the TypeScript types are inferred from
 * them, and the JSON Schemas are generated from them (`typedResultJsonSchemas`). Browser-safe: no node:
 * imports, and nothing here imports an adapter.
 */

const num = z.number();
const str = z.string();
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

const todoSchema = z.object({
  content: str,
  status: str,
  activeForm: opt(str),
  priority: opt(str),
  id: opt(str),
});

const usageSchema = z.object({
  inputTokens: opt(num),
  outputTokens: opt(num),
  cacheCreationInputTokens: opt(num),
  cacheReadInputTokens: opt(num),
});

/** Per-kind `data` schemas. Keys are the kinds. */
export const resultDataSchemas = {
  bash: z.object({
    stdout: str,
    stderr: str,
    /** 0 for a plain success; undefined when unknown (background launch, interpreted return code). */
    exitCode: opt(num),
    interrupted: z.boolean(),
    isImage: opt(z.boolean()),
    backgroundTaskId: opt(str),
    /** The process had not exited when the call returned (Codex unified exec): later calls reach it by this id. */
    runningSessionId: opt(str),
    returnCodeInterpretation: opt(str),
    persistedOutputPath: opt(str),
    persistedOutputSize: opt(num),
    noOutputExpected: opt(z.boolean()),
    timedOutAfterMs: opt(num),
    /**
     * Files the command changed, as the client saw them change (Claude Code 2.1's `bashEditDiff`: a formatter or a
     * script's edits), each with its hunks and line counts.
     */
    editedFiles: opt(
      z.array(z.object({ filePath: str, structuredPatch: z.array(hunkSchema), linesAdded: num, linesRemoved: num })),
    ),
  }),
  'task-output': z.object({
    taskId: opt(str),
    taskType: opt(str),
    /** running | completed | failed | killed | … */
    status: opt(str),
    /** TaskOutput only: success | timeout | not_ready. */
    retrievalStatus: opt(str),
    command: opt(str),
    description: opt(str),
    exitCode: opt(num.nullable()),
    /** TaskOutput: the task output. */
    output: opt(str),
    /** BashOutput: the shell's streams. */
    stdout: opt(str),
    stderr: opt(str),
    error: opt(str),
    timestamp: opt(str),
  }),
  'task-stop': z.object({
    message: str,
    taskId: opt(str),
    taskType: opt(str),
    command: opt(str),
  }),
  ...fileKindSchemas,
  'todo-write': z.object({ oldTodos: opt(z.array(todoSchema)), newTodos: z.array(todoSchema) }),
  agent: z.object({
    /** completed | async_launched | remote_launched | teammate_spawned | sub_agent_entered | … */
    status: str,
    agentId: opt(str),
    agentType: opt(str),
    description: opt(str),
    prompt: opt(str),
    /** The subagent's final text (completed) or the launch note (async). */
    text: str,
    totalTokens: opt(num),
    totalToolUseCount: opt(num),
    totalDurationMs: opt(num),
    /** The tools the subagent used, by name, when the agent lists them. */
    toolsUsed: opt(z.array(str)),
    /** What the subagent did, as the client counted it (Claude Code 2.1.x `toolStats`): calls by kind, lines changed. */
    toolStats: opt(
      z.object({
        reads: opt(num),
        searches: opt(num),
        commands: opt(num),
        fileEdits: opt(num),
        others: opt(num),
        linesAdded: opt(num),
        linesRemoved: opt(num),
      }),
    ),
    outputFile: opt(str),
    resolvedModel: opt(str),
    usage: opt(usageSchema),
  }),
  'web-fetch': z.object({
    url: opt(str),
    code: opt(num),
    codeText: opt(str),
    bytes: opt(num),
    durationMs: opt(num),
    result: str,
  }),
  'web-search': z.object({
    query: str,
    links: z.array(z.object({ title: str, url: str })),
    /** Text parts of the answer, in order. */
    texts: z.array(str),
    durationSeconds: opt(num),
    searchCount: opt(num),
  }),
  'ask-user-question': z.object({
    questions: z.array(
      z.object({
        question: str,
        header: opt(str),
        multiSelect: opt(z.boolean()),
        options: z.array(z.object({ label: str, description: opt(str) })),
      }),
    ),
    /** question text → answer (multi-select answers joined with ", "). */
    answers: z.record(str, str),
  }),
  'exit-plan-mode': z.object({
    plan: str.nullable(),
    approved: z.boolean(),
    filePath: opt(str),
    isAgent: opt(z.boolean()),
  }),
  'enter-plan-mode': z.object({ message: str }),
  skill: z.object({
    /** Skill or command name without the leading slash. */
    commandName: str,
    success: opt(z.boolean()),
    /** inline | forked */
    status: opt(str),
    agentId: opt(str),
    result: opt(str),
    allowedTools: opt(z.array(str)),
    model: opt(str),
  }),
  lsp: z.object({
    operation: str,
    filePath: opt(str),
    result: str,
    resultCount: opt(num),
    fileCount: opt(num),
  }),
  'list-mcp-resources': z.object({
    resources: z.array(
      z.object({
        uri: str,
        name: opt(str),
        title: opt(str),
        server: opt(str),
        mimeType: opt(str),
        description: opt(str),
      }),
    ),
  }),
  'read-mcp-resource': z.object({
    contents: z.array(z.object({ uri: opt(str), mimeType: opt(str), text: opt(str), blobSavedTo: opt(str) })),
    error: opt(str),
  }),
  'read-mcp-resource-dir': z.object({
    resources: z.array(z.object({ uri: str, name: opt(str), mimeType: opt(str) })),
    error: opt(str),
  }),
  ...taskKindSchemas,
  'enter-worktree': z.object({ worktreePath: str, worktreeBranch: opt(str), message: str }),
  'exit-worktree': z.object({
    action: str,
    originalCwd: opt(str),
    worktreePath: opt(str),
    worktreeBranch: opt(str),
    discardedFiles: opt(num),
    discardedCommits: opt(num),
    message: str,
  }),
  monitor: z.object({ taskId: str, timeoutMs: opt(num), persistent: opt(z.boolean()) }),
  workflow: z.object({
    status: str,
    taskId: opt(str),
    taskType: opt(str),
    workflowName: opt(str),
    runId: opt(str),
    summary: opt(str),
    transcriptDir: opt(str),
    scriptPath: opt(str),
    sessionUrl: opt(str),
    warning: opt(str),
    error: opt(str),
  }),
  'send-message': z.object({ success: z.boolean(), message: str, display: opt(str) }),
  'tool-search': z.object({
    query: str,
    matches: z.array(str),
    totalDeferredTools: opt(num),
    pendingMcpServers: opt(z.array(str)),
  }),
  'list-agents': z.object({
    listing: str,
    sections: opt(z.array(z.unknown())),
    notes: opt(z.array(z.unknown())),
  }),
  'report-findings': z.object({
    count: num,
    level: opt(str),
    findings: z.array(
      z.object({
        file: str,
        line: opt(num),
        summary: str,
        shortSummary: opt(str),
        failureScenario: opt(str),
        category: opt(str),
        severity: opt(str),
        verdict: opt(str),
        outcome: opt(str),
      }),
    ),
  }),
  'schedule-wakeup': z.object({
    scheduledFor: num,
    clampedDelaySeconds: num,
    wasClamped: z.boolean(),
    stopped: opt(z.boolean()),
    cancelledWakeups: opt(num),
  }),
  mcp: z.object({
    server: str,
    tool: str,
    /** The text blocks joined with newlines (or the string result). */
    text: str,
    blocks: z.array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('text'), text: str }),
        z.object({ type: z.literal('image'), mediaType: str }),
        z.object({ type: z.literal('other'), blockType: str }),
      ]),
    ),
  }),
  ...agentKindSchemas,
} as const;

export type DataKind = keyof typeof resultDataSchemas;
export const dataKinds = Object.keys(resultDataSchemas) as DataKind[];

const imageValueSchema = z.object({ kind: z.literal('image'), mediaType: str, data: str });
const resultBlockSchema = z.union([
  z.object({ kind: z.literal('text'), text: str }),
  imageValueSchema,
  z.object({ kind: z.literal('tool-reference'), toolName: str }),
  z.object({ kind: z.literal('search-result'), title: str, source: str, text: str }),
  z.object({ kind: z.literal('document'), raw: opt(z.unknown()) }),
  z.object({ kind: z.literal('unknown'), type: str, raw: opt(z.unknown()) }),
]);
const resultContentSchema = z.union([str, z.array(resultBlockSchema)]);

type DataVariantSchema<K extends DataKind> = z.ZodObject<{
  kind: z.ZodLiteral<K>;
  tool: z.ZodString;
  data: (typeof resultDataSchemas)[K];
}>;

/** What each kind is for (the tools, current names first, former names in brackets). */
export const kindDescriptions: Readonly<Record<DataKind, string>> = {
  bash: 'A shell command that ran (Claude Bash, PowerShell; Codex shell; Gemini run_shell_command; Copilot bash; Qwen run_shell_command): output streams and exit code. A non-zero exit is a failed call (an exit-code error with the code), except exit 1 of grep, rg (No matches found) or find (Some directories were inaccessible), as Claude Code reads them.',
  'task-output':
    'Output of a background task or shell (Claude TaskOutput [BashOutput, BashOutputTool, AgentOutputTool]; Copilot read_bash, write_bash).',
  'task-stop': 'A background task or shell was stopped (Claude TaskStop [KillShell, KillBash]; Copilot stop_bash).',
  read: 'A file read, by variant: text, image, notebook, pdf, parts, file_unchanged (Claude Read; Gemini read_file; Copilot view; Qwen read_file).',
  write:
    'One file created or overwritten, with its structured patch (Claude Write; Gemini write_file; Copilot create; Qwen write_file).',
  edit: 'One string replacement in one file, with its structured patch (Claude Edit; Gemini replace; Copilot edit; Qwen edit).',
  'multi-edit': 'Several string replacements in one file (Claude MultiEdit, ≤1.0.128).',
  patch:
    'A patch over one or more files: each file added, updated, deleted or moved, with its hunks (Codex apply_patch).',
  'notebook-edit': 'A notebook cell replaced, inserted or deleted (Claude NotebookEdit).',
  glob: 'File names matching a pattern (Claude Glob; Gemini glob; Copilot glob; Qwen glob).',
  grep: 'A content search: matches, in content, files_with_matches or count mode (Claude Grep; Gemini search_file_content; Copilot grep; Qwen grep_search).',
  ls: 'A directory listing (Claude LS ≤1.0.95; Gemini list_directory).',
  'todo-write': 'The todo list or plan before and after (Claude TodoWrite; Codex update_plan; Gemini write_todos).',
  agent: 'A subagent run (completed) or launch (async_launched, …) (Claude Agent [Task]; Copilot task).',
  'web-fetch': 'A fetched URL, processed by a model (Claude WebFetch; Gemini web_fetch; Copilot web_fetch).',
  'web-search': 'A web search: the query, result links and text (Claude WebSearch; Gemini google_web_search).',
  'ask-user-question': 'Questions put to the user and the answers given (Claude AskUserQuestion).',
  'exit-plan-mode': 'A plan proposed and whether it was approved (Claude ExitPlanMode [exit_plan_mode]).',
  'enter-plan-mode': 'Plan mode entered (Claude EnterPlanMode).',
  skill: 'A skill or slash command launched, inline or forked (Claude Skill [SlashCommand]).',
  lsp: 'A language-server query (Claude LSP).',
  'list-mcp-resources': 'MCP resources listed (Claude ListMcpResourcesTool [ListMcpResources]).',
  'read-mcp-resource': 'Contents of an MCP resource (Claude ReadMcpResourceTool [ReadMcpResource]).',
  'read-mcp-resource-dir': 'An MCP resource directory listing (Claude ReadMcpResourceDirTool [ReadMcpResourceDir]).',
  'cron-create': 'A scheduled job created (Claude CronCreate).',
  'cron-delete': 'A scheduled job cancelled (Claude CronDelete).',
  'cron-list': 'The scheduled jobs (Claude CronList).',
  'task-create': 'A task created in a task list (Claude TaskCreate).',
  'task-get': 'One task of a task list, null when not found (Claude TaskGet).',
  'task-update': 'A task updated, success false when not found (Claude TaskUpdate).',
  'task-list': 'The tasks of a task list (Claude TaskList).',
  'enter-worktree': 'A git worktree created and entered (Claude EnterWorktree).',
  'exit-worktree': 'A git worktree left, kept or removed (Claude ExitWorktree).',
  monitor: 'A background watch started (Claude Monitor).',
  workflow: 'A workflow launched (Claude Workflow [RunWorkflow]).',
  'send-message': 'A message sent to another agent, success false when not delivered (Claude SendMessage).',
  'tool-search': 'Deferred tools matched and loaded (Claude ToolSearch [MCPSearch]).',
  'list-agents': 'The agents that can be reached (Claude ListAgents [ListPeers]).',
  'report-findings': 'Review findings reported (Claude ReportFindings).',
  'schedule-wakeup': 'A wakeup scheduled, or the loop stopped (Claude ScheduleWakeup).',
  mcp: 'An MCP tool result, text and image blocks (any agent: mcp__<server>__<tool> and the like).',
  ...agentKindDescriptions,
};

function dataVariant<K extends DataKind>(kind: K): DataVariantSchema<K> {
  return z
    .object({ kind: z.literal(kind), tool: str, data: resultDataSchemas[kind] })
    .describe(kindDescriptions[kind]) as unknown as DataVariantSchema<K>;
}

/** Schemas of every `TypedResult` variant, keyed by kind. */
export const typedResultVariantSchemas = {
  ...(Object.fromEntries(dataKinds.map((k) => [k, dataVariant(k)])) as { [K in DataKind]: DataVariantSchema<K> }),
  /** The call failed (the agent marked it an error): the tool as written and the message without its wrapper. */
  error: z
    .object({ kind: z.literal('error'), tool: str, message: str })
    .describe('The call failed (is_error: true): the tool as written and the message without its wrapper.'),
  /**
   * A tool or a shape this library does not know: the content and the structured output the agent wrote beside it
   * (`toolUseResult`, the name Claude Code gave it), kept as written.
   */
  unknown: z
    .object({
      kind: z.literal('unknown'),
      tool: str,
      content: resultContentSchema,
      toolUseResult: opt(z.unknown()),
    })
    .describe('A tool or a result shape this library does not know: content and toolUseResult kept as written.'),
};

export type TypedResultKind = keyof typeof typedResultVariantSchemas;
export const typedResultKinds = Object.keys(typedResultVariantSchemas) as TypedResultKind[];

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The `data` of one kind. */
export type ResultData<K extends DataKind> = DeepReadonly<z.output<(typeof resultDataSchemas)[K]>>;

/**
 * Typed tool results: a readonly discriminated union keyed by `kind`. Each known tool has its own kind
 * (renamed tools share one), MCP tools share `mcp`, failed calls are `error` and anything else is `unknown`.
 */
export type TypedResult = {
  [K in TypedResultKind]: DeepReadonly<z.output<(typeof typedResultVariantSchemas)[K]>>;
}[TypedResultKind];

/** The variant of one kind. */
export type TypedResultOf<K extends TypedResultKind> = Extract<TypedResult, { kind: K }>;
