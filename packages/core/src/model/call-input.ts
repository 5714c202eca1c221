/**
 * The agent-neutral view of a tool call's input: what screens show of a call before (and beside) its result,
 * under one set of names for every agent. Each adapter maps its own argument names onto it (`typeInput`); every
 * field is optional, since an agent fills only what its tools take. The raw input stays on the call as written.
 * Browser-safe: no node: imports, and nothing here imports an adapter.
 */

/** One replacement of a multi-edit, as the call asked for it. */
export interface InputEdit {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll?: boolean;
}

/** One item of a todo list or plan, as the call wrote it. */
export interface InputTodo {
  readonly content: string;
  readonly status: string;
  readonly id?: string;
}

/** One question put to the user, as the call asked it. */
export interface InputQuestion {
  readonly question: string;
  readonly header?: string;
  readonly multiSelect?: boolean;
  readonly options: readonly { readonly label: string; readonly description?: string }[];
}

export interface CallInput {
  /** The file (or notebook) the call reads, writes, edits or queries. */
  readonly filePath?: string;
  /** A shell command line; for a slash command, the command as typed. */
  readonly command?: string;
  /**
   * The shell that runs `command` where it is not a POSIX one: PowerShell (Codex on Windows, Copilot CLI's
   * `powershell`), which reads `\` as a path's separator, not an escape, and has cmdlets of its own.
   */
  readonly shell?: 'powershell';
  /** What the call is for, in the agent's words (shell, subagent, task). */
  readonly description?: string;
  readonly timeoutMs?: number;
  /** The call asked to run in the background. */
  readonly background?: boolean;
  /** Characters the call types into a running process (Codex `write_stdin` `chars`; empty when it only reads). */
  readonly stdin?: string;
  /** Text a write puts in its file. */
  readonly content?: string;
  readonly oldString?: string;
  readonly newString?: string;
  readonly replaceAll?: boolean;
  readonly edits?: readonly InputEdit[];
  /**
   * A patch of one or more files as the call wrote it (Codex's `apply_patch` envelope): what it asked to change; for
   * a script (Codex `exec`), the envelopes it applies, one after another.
   */
  readonly patch?: string;
  /**
   * The shell command lines a script runs through its shell tool, in order (Codex `exec`'s
   * `tools.exec_command({cmd})` with a literal command): what it plainly did to files is theirs.
   */
  readonly commands?: readonly string[];
  /**
   * The call was made by a script the agent ran (a Codex `exec` script's `tools.*` call), not asked by the model: it
   * runs while the script's own call does.
   */
  readonly fromScript?: boolean;
  /** First line (or line offset) and line count of a read. */
  readonly offset?: number;
  readonly limit?: number;
  readonly cellId?: string;
  readonly cellType?: string;
  /** replace | insert | delete */
  readonly editMode?: string;
  readonly newSource?: string;
  /** A search pattern (regex or glob). */
  readonly pattern?: string;
  /** The folder a search runs in. */
  readonly path?: string;
  /** A file-name filter beside a content search. */
  readonly glob?: string;
  /** A file-type filter beside a content search. */
  readonly fileType?: string;
  /** content | files_with_matches | count */
  readonly outputMode?: string;
  /** Search flags as written (`-i`, `-n`, `-C 3`, `multiline`), in order. */
  readonly flags?: readonly string[];
  readonly query?: string;
  readonly url?: string;
  readonly allowedDomains?: readonly string[];
  /** A prompt handed on (to a fetch's model, a subagent, a scheduled job). */
  readonly prompt?: string;
  readonly model?: string;
  readonly agentType?: string;
  readonly todos?: readonly InputTodo[];
  readonly questions?: readonly InputQuestion[];
  readonly plan?: string;
  /** A skill or command name without the leading slash. */
  readonly skillName?: string;
  readonly args?: string;
  /** The background task, shell, task-list item or job the call is about. */
  readonly taskId?: string;
  readonly subject?: string;
  /** A cron expression. */
  readonly schedule?: string;
  /** A scheduled job's id. */
  readonly jobId?: string;
  readonly action?: string;
  readonly name?: string;
  /** A language-server operation and position. */
  readonly operation?: string;
  readonly line?: number;
  readonly character?: number;
}
