import { createRequire } from 'node:module';
import type { z } from 'zod';

/*
 * The typed shape of every tool result, defined once as zod schemas. The parser validates what it builds
 * against these schemas, the TypeScript types are inferred from them, and the JSON Schemas are generated
 * from them (`typedResultJsonSchemas`). zod is loaded on first use (`resultSchemas()`): a command that only reads
 * the index (stats, a warm index) never types a result and so never pays for loading it.
 */

type Zod = typeof z;

/** The per-kind `data` schemas (and the patch hunk they share), built with the zod given. */
function buildDataSchemas(z: Zod) {
  const num = z.number();
  const str = z.string();
  const opt = <T extends z.ZodType>(schema: T) => schema.optional();

  /** One hunk of a structured patch: `lines` are prefixed with " ", "+" or "-". */
  const hunkSchema = z.object({
    oldStart: num,
    oldLines: num,
    newStart: num,
    newLines: num,
    lines: z.array(str),
  });

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
  const resultDataSchemas = {
    bash: z.object({
      stdout: str,
      stderr: str,
      /** 0 for a plain success; undefined when unknown (background launch, interpreted return code). */
      exitCode: opt(num),
      interrupted: z.boolean(),
      isImage: opt(z.boolean()),
      backgroundTaskId: opt(str),
      returnCodeInterpretation: opt(str),
      persistedOutputPath: opt(str),
      persistedOutputSize: opt(num),
      noOutputExpected: opt(z.boolean()),
      timedOutAfterMs: opt(num),
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
    read: z.discriminatedUnion('variant', [
      z.object({
        variant: z.literal('text'),
        filePath: str,
        content: str,
        startLine: num,
        numLines: num,
        totalLines: opt(num),
        truncated: opt(z.boolean()),
      }),
      z.object({
        variant: z.literal('image'),
        filePath: opt(str),
        mediaType: str,
        originalSize: opt(num),
        dimensions: opt(z.record(str, num)),
      }),
      z.object({
        variant: z.literal('notebook'),
        filePath: str,
        cells: z.array(
          z.object({
            cellId: opt(str),
            cellType: str,
            source: str,
            language: opt(str),
            executionCount: opt(num.nullable()),
            outputs: opt(z.array(z.unknown())),
          }),
        ),
      }),
      z.object({ variant: z.literal('pdf'), filePath: str, originalSize: opt(num) }),
      z.object({
        variant: z.literal('parts'),
        filePath: str,
        originalSize: opt(num),
        count: opt(num),
        outputDir: opt(str),
      }),
      z.object({ variant: z.literal('file_unchanged'), filePath: str }),
    ]),
    write: z.object({
      filePath: str,
      operation: z.enum(['create', 'update']),
      content: opt(str),
      structuredPatch: z.array(hunkSchema),
      originalFile: opt(str.nullable()),
      userModified: opt(z.boolean()),
      /** From the patch (or the new file's text); undefined when the result carries no patch. */
      linesAdded: opt(num),
      linesRemoved: opt(num),
    }),
    edit: z.object({
      filePath: str,
      oldString: opt(str),
      newString: opt(str),
      replaceAll: opt(z.boolean()),
      userModified: opt(z.boolean()),
      originalFile: opt(str.nullable()),
      structuredPatch: z.array(hunkSchema),
      /** From the patch (or the new file's text); undefined when the result carries no patch. */
      linesAdded: opt(num),
      linesRemoved: opt(num),
    }),
    'multi-edit': z.object({
      filePath: str,
      edits: z.array(z.object({ oldString: str, newString: str, replaceAll: opt(z.boolean()) })),
      originalFile: opt(str.nullable()),
      structuredPatch: z.array(hunkSchema),
      userModified: opt(z.boolean()),
      /** From the patch (or the new file's text); undefined when the result carries no patch. */
      linesAdded: opt(num),
      linesRemoved: opt(num),
    }),
    'notebook-edit': z.object({
      notebookPath: opt(str),
      cellId: opt(str),
      cellType: opt(str),
      language: opt(str),
      /** replace | insert | delete */
      editMode: opt(str),
      newSource: str,
      oldSource: opt(str),
      error: opt(str),
    }),
    glob: z.object({
      filenames: z.array(str),
      numFiles: num,
      durationMs: opt(num),
      truncated: opt(z.boolean()),
      totalMatches: opt(num),
    }),
    grep: z.object({
      /** content | files_with_matches | count */
      mode: str,
      filenames: z.array(str),
      content: opt(str),
      numFiles: num,
      numLines: opt(num),
      numMatches: opt(num),
      appliedLimit: opt(num),
      appliedOffset: opt(num),
      totalFiles: opt(num),
      totalLines: opt(num),
    }),
    ls: z.object({ listing: str }),
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
    'cron-create': z.object({
      id: str,
      humanSchedule: opt(str),
      recurring: opt(z.boolean()),
      durable: opt(z.boolean()),
      nextFireAt: opt(num),
      maxAgeMs: opt(num),
    }),
    'cron-delete': z.object({ id: str }),
    'cron-list': z.object({
      jobs: z.array(
        z.object({
          id: str,
          cron: opt(str),
          humanSchedule: opt(str),
          prompt: opt(str),
          recurring: opt(z.boolean()),
          durable: opt(z.boolean()),
          nextFireAt: opt(num),
        }),
      ),
    }),
    'task-create': z.object({ taskId: str, subject: str, description: opt(str) }),
    'task-get': z.object({
      task: z
        .object({
          id: str,
          subject: str,
          description: opt(str),
          status: opt(str),
          blocks: opt(z.array(str)),
          blockedBy: opt(z.array(str)),
        })
        .nullable(),
    }),
    'task-update': z.object({
      success: z.boolean(),
      taskId: str,
      updatedFields: z.array(str),
      error: opt(str),
      statusChange: opt(z.object({ from: str, to: str })),
    }),
    'task-list': z.object({
      tasks: z.array(z.object({ id: str, subject: str, status: str, owner: opt(str), blockedBy: opt(z.array(str)) })),
    }),
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
  } as const;
  return { hunkSchema, resultDataSchemas };
}

type DataSchemas = ReturnType<typeof buildDataSchemas>['resultDataSchemas'];

export type DataKind = keyof DataSchemas;

type DataVariantSchema<K extends DataKind> = z.ZodObject<{
  kind: z.ZodLiteral<K>;
  tool: z.ZodString;
  data: DataSchemas[K];
}>;

/** What each kind is for (the tools, current names first, former names in brackets). */
export const kindDescriptions: Readonly<Record<DataKind, string>> = {
  bash: 'Bash (and PowerShell): a shell command that ran; exitCode 0 for a plain success.',
  'task-output': 'TaskOutput [BashOutput, BashOutputTool, AgentOutputTool]: output of a background task or shell.',
  'task-stop': 'TaskStop [KillShell, KillBash]: a background task or shell was stopped.',
  read: 'Read: a file read, by variant (text, image, notebook, pdf, parts, file_unchanged).',
  write: 'Write: a file created or overwritten, with its structured patch.',
  edit: 'Edit: one string replacement in a file, with its structured patch.',
  'multi-edit': 'MultiEdit (≤1.0.128): several replacements in one file.',
  'notebook-edit': 'NotebookEdit: a notebook cell replaced, inserted or deleted.',
  glob: 'Glob: matching file names.',
  grep: 'Grep: matches, in content, files_with_matches or count mode.',
  ls: 'LS (≤1.0.95): a directory listing.',
  'todo-write': 'TodoWrite: the todo list before and after.',
  agent: 'Agent [Task]: a subagent run (completed) or launch (async_launched, …).',
  'web-fetch': 'WebFetch: a fetched URL processed by a model.',
  'web-search': 'WebSearch: the query, result links and text.',
  'ask-user-question': 'AskUserQuestion: the questions and the answers given.',
  'exit-plan-mode': 'ExitPlanMode [exit_plan_mode]: the plan and whether it was approved.',
  'enter-plan-mode': 'EnterPlanMode: plan mode entered.',
  skill: 'Skill [SlashCommand]: a skill or slash command launched (inline or forked).',
  lsp: 'LSP: a language-server query.',
  'list-mcp-resources': 'ListMcpResourcesTool [ListMcpResources]: MCP resources.',
  'read-mcp-resource': 'ReadMcpResourceTool [ReadMcpResource]: contents of an MCP resource.',
  'read-mcp-resource-dir': 'ReadMcpResourceDirTool [ReadMcpResourceDir]: an MCP resource directory listing.',
  'cron-create': 'CronCreate: a scheduled job created.',
  'cron-delete': 'CronDelete: a scheduled job cancelled.',
  'cron-list': 'CronList: the scheduled jobs.',
  'task-create': 'TaskCreate: a task created.',
  'task-get': 'TaskGet: one task (null when not found).',
  'task-update': 'TaskUpdate: a task updated (success false when not found).',
  'task-list': 'TaskList: the tasks.',
  'enter-worktree': 'EnterWorktree: a git worktree created and entered.',
  'exit-worktree': 'ExitWorktree: a worktree left (kept or removed).',
  monitor: 'Monitor: a background watch started.',
  workflow: 'Workflow [RunWorkflow]: a workflow launched.',
  'send-message': 'SendMessage: a message to another agent (success false when not delivered).',
  'tool-search': 'ToolSearch [MCPSearch]: deferred tools matched and loaded.',
  'list-agents': 'ListAgents [ListPeers]: reachable agents.',
  'report-findings': 'ReportFindings: review findings reported.',
  'schedule-wakeup': 'ScheduleWakeup: a wakeup scheduled, or the loop stopped.',
  mcp: 'mcp__<server>__<tool>: an MCP tool result (text and image blocks).',
};

export const dataKinds = Object.keys(kindDescriptions) as DataKind[];

/** Schemas of every `TypedResult` variant, keyed by kind, built with the zod given over the data schemas. */
function buildVariantSchemas(z: Zod, resultDataSchemas: DataSchemas) {
  const str = z.string();
  const opt = <T extends z.ZodType>(schema: T) => schema.optional();
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

  function dataVariant<K extends DataKind>(kind: K): DataVariantSchema<K> {
    return z
      .object({ kind: z.literal(kind), tool: str, data: resultDataSchemas[kind] })
      .describe(kindDescriptions[kind]) as unknown as DataVariantSchema<K>;
  }

  /** Schemas of every `TypedResult` variant, keyed by kind. */
  const typedResultVariantSchemas = {
    ...(Object.fromEntries(dataKinds.map((k) => [k, dataVariant(k)])) as { [K in DataKind]: DataVariantSchema<K> }),
    /** The call failed (`is_error: true`): the tool as written and the message without its wrapper. */
    error: z
      .object({ kind: z.literal('error'), tool: str, message: str })
      .describe('The call failed (is_error: true): the tool as written and the message without its wrapper.'),
    /** A tool or a shape this library does not know: the raw content and toolUseResult, kept as written. */
    unknown: z
      .object({
        kind: z.literal('unknown'),
        tool: str,
        content: resultContentSchema,
        toolUseResult: opt(z.unknown()),
      })
      .describe('A tool or a result shape this library does not know: content and toolUseResult kept as written.'),
  };
  return typedResultVariantSchemas;
}

type VariantSchemas = ReturnType<typeof buildVariantSchemas>;

interface ResultSchemas {
  readonly z: Zod;
  readonly hunkSchema: ReturnType<typeof buildDataSchemas>['hunkSchema'];
  readonly resultDataSchemas: DataSchemas;
  readonly typedResultVariantSchemas: VariantSchemas;
}

let built: ResultSchemas | undefined;

/** The zod schemas, built on first use (loading zod then, synchronously). */
export function resultSchemas(): ResultSchemas {
  if (built === undefined) {
    const { z: zod } = createRequire(import.meta.url)('zod') as { z: Zod };
    const data = buildDataSchemas(zod);
    built = { z: zod, ...data, typedResultVariantSchemas: buildVariantSchemas(zod, data.resultDataSchemas) };
  }
  return built;
}

/** An object that stands for the one `get` builds, built on first use. */
function lazy<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(get(), key),
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
  });
}

/** One hunk of a structured patch: `lines` are prefixed with " ", "+" or "-". */
export const hunkSchema = lazy(() => resultSchemas().hunkSchema);
/** Per-kind `data` schemas. Keys are the kinds. */
export const resultDataSchemas: DataSchemas = lazy(() => resultSchemas().resultDataSchemas);
/** Schemas of every `TypedResult` variant, keyed by kind. */
export const typedResultVariantSchemas: VariantSchemas = lazy(() => resultSchemas().typedResultVariantSchemas);

export type TypedResultKind = keyof VariantSchemas;
export const typedResultKinds: TypedResultKind[] = [...dataKinds, 'error', 'unknown'];

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The `data` of one kind. */
export type ResultData<K extends DataKind> = DeepReadonly<z.output<DataSchemas[K]>>;

/**
 * Typed tool results: a readonly discriminated union keyed by `kind`. Each known tool has its own kind
 * (renamed tools share one), MCP tools share `mcp`, failed calls are `error` and anything else is `unknown`.
 */
export type TypedResult = {
  [K in TypedResultKind]: DeepReadonly<z.output<VariantSchemas[K]>>;
}[TypedResultKind];

/** The variant of one kind. */
export type TypedResultOf<K extends TypedResultKind> = Extract<TypedResult, { kind: K }>;
