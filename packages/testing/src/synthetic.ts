/** Small synthetic Claude Code transcripts for tests: records shaped like the real client's. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface RecordBase {
  readonly sessionId: string;
  readonly uuid: string;
  readonly parentUuid?: string | null;
  readonly timestamp: string;
  readonly cwd?: string;
  readonly isSidechain?: boolean;
  readonly agentId?: string;
}

/** Record bases of one session, `second` seconds after 2026-01-02T10:00:00Z. */
export function basesOf(sessionId: string) {
  return (uuid: string, parentUuid: string | null, second: number): RecordBase => ({
    sessionId,
    uuid,
    parentUuid,
    timestamp: `2026-01-02T10:00:${String(second).padStart(2, '0')}.000Z`,
  });
}

function envelope(base: RecordBase) {
  return {
    parentUuid: base.parentUuid ?? null,
    isSidechain: base.isSidechain ?? false,
    userType: 'external',
    cwd: base.cwd ?? '/home/user/proj/demo',
    sessionId: base.sessionId,
    version: '2.1.330',
    gitBranch: 'main',
    ...(base.agentId ? { agentId: base.agentId } : {}),
    uuid: base.uuid,
    timestamp: base.timestamp,
  };
}

/** A user's prompt: its text, or content blocks as the client writes them (text, images). */
export function prompt(base: RecordBase, content: string | readonly unknown[]): string {
  return JSON.stringify({ ...envelope(base), type: 'user', message: { role: 'user', content } });
}

/** An assistant block record of one API response. */
function assistantRecord(
  base: RecordBase,
  messageId: string,
  block: unknown,
  stopReason: string,
  outputTokens: number,
): string {
  return JSON.stringify({
    ...envelope(base),
    type: 'assistant',
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [block],
      stop_reason: stopReason,
      usage: {
        input_tokens: 10,
        output_tokens: outputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    },
  });
}

export function assistantText(base: RecordBase, messageId: string, text: string): string {
  return assistantRecord(base, messageId, { type: 'text', text }, 'end_turn', 5);
}

export function toolUse(base: RecordBase, messageId: string, id: string, name: string, input: unknown): string {
  return assistantRecord(base, messageId, { type: 'tool_use', id, name, input }, 'tool_use', 7);
}

export function toolResult(
  base: RecordBase,
  id: string,
  content: string,
  isError: boolean,
  toolUseResult?: unknown,
): string {
  return JSON.stringify({
    ...envelope(base),
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }] },
    ...(toolUseResult !== undefined ? { toolUseResult } : {}),
  });
}

/** A hook's progress record on call `id` (Claude Code 2.x writes one for each hook it runs on a call). */
export function hookProgress(base: RecordBase, id: string, event = 'PreToolUse'): string {
  return JSON.stringify({
    ...envelope(base),
    type: 'progress',
    data: { type: 'hook_progress', hookEvent: event, hookName: `${event}:Bash`, command: './pre-commit.sh' },
    toolUseID: id,
    parentToolUseID: id,
  });
}

/**
 * Three failing shell calls of Claude Code 2.x, each after a hook's record: one a PreToolUse hook blocked (its stderr
 * the result, no `Exit code N`, as 2.1.39 wrote it), one whose hook passed and whose command exited 1, one after a
 * PostToolUse hook. Their ids: `toolu_blocked`, `toolu_ran`, `toolu_post`.
 */
export function hookedShellCalls(sessionId: string): string[] {
  const at = basesOf(sessionId);
  return [
    prompt(at('u1', null, 1), 'Commit it.'),
    toolUse(at('a1', 'u1', 2), 'msg_1', 'toolu_blocked', 'Bash', { command: 'git commit -m x' }),
    hookProgress(at('p1', 'a1', 3), 'toolu_blocked'),
    toolResult(at('r1', 'p1', 40), 'toolu_blocked', 'Pre-commit validation failed:\n\n[DIALYZER]\nerrors found', true),
    toolUse(at('a2', 'r1', 41), 'msg_2', 'toolu_ran', 'Bash', { command: 'npm test' }),
    hookProgress(at('p2', 'a2', 42), 'toolu_ran'),
    toolResult(at('r2', 'p2', 50), 'toolu_ran', 'Exit code 1\n1 test failed', true),
    toolUse(at('a3', 'r2', 51), 'msg_3', 'toolu_post', 'Bash', { command: 'make' }),
    hookProgress(at('p3', 'a3', 52), 'toolu_post', 'PostToolUse'),
    toolResult(at('r3', 'p3', 53), 'toolu_post', 'make: *** No rule to make target', true),
  ];
}

/** What `hookedShellCalls` are: the blocked one the hook's, the others their commands' exits. */
export const HOOKED_CATEGORIES = [
  ['toolu_blocked', 'hook-blocked', undefined],
  ['toolu_ran', 'exit-code', 1],
  ['toolu_post', 'exit-code', undefined],
] as const;

export function writeLines(path: string, lines: readonly string[], terminate = true): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join('\n') + (terminate && lines.length > 0 ? '\n' : ''));
}

export const SESSION = '11111111-2222-4333-8444-555555555555';
export const AGENT = 'a0123456789abcdef';

let counter = 0;
/** A fresh session id for each demo home (one index holds them all; a session id names one session). */
export function nextSessionId(): string {
  counter += 1;
  return `${String(counter).padStart(8, '0')}-2222-4333-8444-555555555555`;
}

/**
 * A Claude home with one session: a Bash call whose output holds `outputOnlyWord`, an Agent call, and a subagent
 * file (2.1 layout) whose assistant text holds `subagentOnlyWord`. Returns the paths. Its records' uuids, message ids
 * and call ids are the same in every demo home unless `distinct` (a suffix for them) is given: two demo sessions of
 * one home without it are one conversation twice, the later a copy of the earlier (as a resume that added nothing).
 */
export function writeDemoHome(
  root: string,
  words: { outputOnlyWord: string; subagentOnlyWord: string },
  sessionId: string = SESSION,
  distinct?: string,
) {
  const id = (name: string) => (distinct === undefined ? name : `${name}_${distinct}`);
  const project = join(root, 'projects', '-home-user-proj-demo');
  const main = join(project, `${sessionId}.jsonl`);
  const sub = join(project, sessionId, 'subagents', `agent-${AGENT}.jsonl`);
  const bases = basesOf(sessionId);
  const b = (uuid: string, parentUuid: string | null, second: number) =>
    bases(id(uuid), parentUuid === null ? null : id(parentUuid), second);
  const mainLines = [
    prompt(b('u1', null, 0), 'Please run the tests and survey the code.'),
    toolUse(b('a1', 'u1', 1), id('msg_1'), id('toolu_bash1'), 'Bash', {
      command: 'npm test',
      description: 'Run tests',
    }),
    toolResult(b('r1', 'a1', 3), id('toolu_bash1'), `Exit code 1\nFAIL ${words.outputOnlyWord} suite`, true),
    toolUse(b('a2', 'r1', 4), id('msg_2'), id('toolu_agent1'), 'Agent', {
      description: 'Survey code',
      prompt: 'Survey the code.',
      subagent_type: 'general-purpose',
    }),
    toolResult(b('r2', 'a2', 9), id('toolu_agent1'), 'Survey done.', false, {
      status: 'completed',
      agentId: AGENT,
      content: [{ type: 'text', text: 'Survey done.' }],
      totalDurationMs: 4000,
    }),
    assistantText(b('a3', 'r2', 10), id('msg_3'), 'All done.'),
  ];
  const sb = (uuid: string, parentUuid: string | null, second: number): RecordBase => ({
    ...b(uuid, parentUuid, second),
    isSidechain: true,
    agentId: AGENT,
  });
  const subLines = [
    prompt(sb('s1', null, 5), 'Survey the code.'),
    toolUse(sb('s2', 's1', 6), id('msg_s1'), id('toolu_read1'), 'Read', { file_path: '/home/user/proj/demo/src/a.ts' }),
    toolResult(sb('s3', 's2', 7), id('toolu_read1'), '1\texport const a = 1;', false),
    assistantText(sb('s4', 's3', 8), id('msg_s2'), `The code looks fine; ${words.subagentOnlyWord} noted.`),
  ];
  writeLines(main, mainLines);
  writeLines(sub, subLines);
  return { home: root, project, main, sub, mainLines, subLines, sessionId };
}

export interface ContentBlock {
  readonly type?: string;
  readonly id?: string;
  readonly name?: string;
  readonly tool_use_id?: string;
  readonly is_error?: boolean;
}

/** The message content blocks of a transcript's lines with their record type, read with plain JSON.parse. */
export function* contentBlocks(
  text: string,
): Generator<{ readonly recordType?: string; readonly block: ContentBlock }> {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: { type?: string; message?: { content?: unknown } };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const content = record.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as ContentBlock[]) yield { recordType: record.type, block };
  }
}

/** What `claudeTurn` writes: a prompt and its one-block response, in `session`, at `minute` past 10:00 on 2026-01-05. */
export interface TurnOptions {
  readonly session: string;
  readonly minute: number;
  /** The records' uuids are `<uuid>-u` and `<uuid>-a` (a resume's copy keeps them). */
  readonly uuid: string;
  readonly messageId: string;
  /** Absent as Claude Code 1.0.x's resume copies write it. */
  readonly requestId?: string | undefined;
  readonly model?: string;
  readonly inputTokens?: number;
  readonly version?: string;
  readonly cwd?: string;
}

/** A prompt and the response to it: two lines of a Claude Code transcript (ids and usage as given). */
export function claudeTurn(o: TurnOptions): string[] {
  const base = {
    sessionId: o.session,
    cwd: o.cwd ?? '/p',
    version: o.version ?? '2.0.50',
    isSidechain: false,
    userType: 'external',
  };
  const at = (second: number) => `2026-01-05T10:${String(o.minute).padStart(2, '0')}:0${second}.000Z`;
  const usage = {
    input_tokens: o.inputTokens ?? 10,
    output_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const user = { role: 'user', content: 'hi' };
  return [
    JSON.stringify({ ...base, type: 'user', uuid: `${o.uuid}-u`, parentUuid: null, timestamp: at(0), message: user }),
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `${o.uuid}-a`,
      parentUuid: `${o.uuid}-u`,
      timestamp: at(5),
      ...(o.requestId === undefined ? {} : { requestId: o.requestId }),
      message: {
        id: o.messageId,
        type: 'message',
        role: 'assistant',
        model: o.model ?? 'claude-sonnet-4-5-20250929',
        content: [{ type: 'text', text: 'hello' }],
        stop_reason: 'end_turn',
        usage,
      },
    }),
  ];
}
