import { isRecord, num, str } from '../../internal/guards.js';
import { parseObjectLines } from '../../internal/json-line.js';
import type { ResultBlock } from '../../model/content.js';
import { createToolUseId } from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';
import type { CodexRecordEvent } from './decode-session.js';
import { CodexSession, isReconnect } from './decode-session.js';
import { codexFailureOf, codexShellExitOf, EXEC_EVENT_STYLE } from './errors.js';
import { mcpContentBlocks } from './output.js';
import { tokenUsageOf, toUsage } from './usage.js';

/** Items that are tool calls, with the name the rollout gives the same tool (so statistics count one tool). */
const CALL_NAMES: Readonly<Record<string, (item: Record<string, unknown>) => string>> = {
  command_execution: () => 'exec_command',
  file_change: () => 'apply_patch',
  mcp_tool_call: (item) => `mcp__${str(item.server) ?? 'unknown'}__${str(item.tool) ?? 'unknown'}`,
  web_search: () => 'web_search',
  todo_list: () => 'update_plan',
};

/**
 * Decodes `codex exec --json` output (a CI job's artifact) into the shared records: `thread.started` names the
 * session, each turn is one response (`turn.completed` carries the turn's usage: the format has no per-request
 * usage, no timestamps, no cwd and no model), tool items pair by item id (`item.started` → call, `item.completed` →
 * result), and `error` / `turn.failed` are API errors. The prompt is not written. Never throws on bad data.
 */
export class CodexExecDecoder extends CodexSession {
  /** Calls already emitted (at `item.started`), by item id. */
  private readonly called = new Set<string>();
  /** The message of the `error` line just read, which a `turn.failed` repeats. */
  private lastError: string | undefined;

  decodeLine(text: string, loc: SourceLocation, emit: (event: CodexRecordEvent) => void): void {
    this.lines += 1;
    const lines = parseObjectLines(text, (code, message) =>
      emit({ kind: 'issue', issue: this.issue(loc, code, message) }),
    );
    let first = true;
    this.eachPart(lines, (line) =>
      this.decodeEvent(line, loc, (record) => {
        if (record.kind === 'unknown') {
          const message = `unknown exec event "${record.type}" kept as raw data`;
          emit({ kind: 'issue', issue: this.issue(loc, 'unknown_record', message) });
        }
        emit({ kind: 'record', record, byteLength: first ? text.length : 0 });
        first = false;
        if ('uuid' in record) this.previousUuid = record.uuid;
      }),
    );
  }

  private decodeEvent(line: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void): void {
    const type = str(line.type) ?? '';
    const item = isRecord(line.item) ? line.item : undefined;
    switch (type) {
      case 'thread.started':
        this.sessionId ??= str(line.thread_id);
        out(this.meta(type, line, undefined, loc));
        return;
      case 'turn.started':
        out(this.meta(type, line, undefined, loc));
        return;
      case 'turn.completed': {
        const usage = tokenUsageOf(line.usage);
        if (usage === undefined) out(this.meta(type, line, undefined, loc));
        else out({ ...this.assistant([], undefined, loc), usage: toUsage(usage) });
        this.response += 1;
        return;
      }
      case 'turn.failed':
      case 'error': {
        const error = isRecord(line.error) ? line.error : line;
        const message = str(error.message) ?? type;
        // A fatal error is written twice, as `error` then as the `turn.failed` it caused: one error.
        if (type === 'turn.failed' && message === this.lastError) out(this.meta(type, line, undefined, loc));
        else out(this.system('api_error', message, 'error', line, undefined, loc, isReconnect(message)));
        this.lastError = type === 'error' ? message : undefined;
        if (type === 'turn.failed') this.response += 1;
        return;
      }
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        if (item !== undefined) {
          this.item(type, item, loc, out);
          return;
        }
        break;
    }
    out({ kind: 'unknown', type: type === '' ? '(no type)' : type, raw: line, ...this.side(undefined, loc) });
  }

  private item(type: string, item: Record<string, unknown>, loc: SourceLocation, out: (r: TranscriptRecord) => void) {
    const itemType = str(item.type) ?? '';
    const id = str(item.id) ?? `${itemType}@${loc.line}`;
    const callName = CALL_NAMES[itemType];
    if (callName !== undefined) {
      if (type === 'item.updated') {
        out(this.meta(`${type}:${itemType}`, item, undefined, loc));
        return;
      }
      if (!this.called.has(id)) {
        this.called.add(id);
        const call = { kind: 'tool-use' as const, id: this.toolUseId(id), name: callName(item), input: inputOf(item) };
        out(this.assistant([call], undefined, loc));
      }
      if (type === 'item.completed') out(this.result(id, callName(item), item, loc));
      return;
    }
    if (type !== 'item.completed') {
      out(this.meta(`${type}:${itemType}`, item, undefined, loc));
      return;
    }
    const text = str(item.text) ?? '';
    if (itemType === 'agent_message') out(this.assistant([{ kind: 'text', text }], undefined, loc));
    else if (itemType === 'reasoning') out(this.assistant([{ kind: 'thinking', thinking: text }], undefined, loc));
    else if (itemType === 'error') {
      // The client's notices ("Heads up: Long threads…"): no call failed, nothing stopped.
      out(this.system('notice', str(item.message) ?? '', 'warning', item, undefined, loc));
    } else out({ kind: 'unknown', type: `item:${itemType}`, raw: item, ...this.side(undefined, loc) });
  }

  private result(id: string, name: string, item: Record<string, unknown>, loc: SourceLocation): TranscriptRecord {
    const status = str(item.status);
    const exitCode = num(item.exit_code);
    const content = contentOf(item);
    const text =
      typeof content === 'string' ? content : content.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
    // A command's failure is its exit code read as the rollout's are; another tool's, its status (and why, its text).
    const shellExit = codexShellExitOf(name, inputOf(item), exitCode, EXEC_EVENT_STYLE);
    const failed =
      shellExit !== undefined
        ? shellExit.failed
        : codexFailureOf(name, text, status === 'failed', str(item.type) !== 'command_execution') !== undefined;
    const facts = {
      style: EXEC_EVENT_STYLE,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(status !== undefined ? { status } : {}),
    };
    return this.user(
      [{ kind: 'tool-result', toolUseId: this.toolUseId(id), content, isError: failed }],
      false,
      facts,
      undefined,
      loc,
    );
  }

  /** Item ids (`item_0`…) restart in every run of an `exec resume`: a call's id is its session's and its own. */
  private toolUseId(itemId: string) {
    return createToolUseId(`${this.sessionId ?? this.file}:${itemId}`);
  }
}

/** A tool item's input under the names the rollout's calls use. */
function inputOf(item: Record<string, unknown>): Record<string, unknown> {
  switch (str(item.type)) {
    case 'command_execution':
      return { cmd: str(item.command) ?? '' };
    case 'file_change':
      return { changes: Array.isArray(item.changes) ? item.changes : [] };
    case 'mcp_tool_call':
      return isRecord(item.arguments) ? item.arguments : {};
    case 'web_search':
      return isRecord(item.action) ? item.action : { query: str(item.query) ?? '' };
    case 'todo_list': {
      const items = Array.isArray(item.items) ? item.items.filter(isRecord) : [];
      const plan = items.map((i) => ({
        step: str(i.text) ?? '',
        status: i.completed === true ? 'completed' : 'pending',
      }));
      return { plan };
    }
    default:
      return {};
  }
}

/** A completed tool item's output: a command's output, an MCP result's blocks or error, the search, the changes. */
function contentOf(item: Record<string, unknown>): string | readonly ResultBlock[] {
  switch (str(item.type)) {
    case 'command_execution':
      return str(item.aggregated_output) ?? '';
    case 'file_change': {
      const changes = Array.isArray(item.changes) ? item.changes.filter(isRecord) : [];
      return changes.map((c) => `${str(c.kind) ?? 'change'} ${str(c.path) ?? ''}`).join('\n');
    }
    case 'mcp_tool_call': {
      const error = isRecord(item.error) ? str(item.error.message) : undefined;
      if (error !== undefined) return error;
      return mcpContentBlocks(isRecord(item.result) ? item.result.content : undefined);
    }
    case 'web_search':
      return str(item.query) ?? '';
    default:
      return '';
  }
}
