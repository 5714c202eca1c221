/**
 * An independent count over a Claude home, written for the tests and sharing no code with AgentDash's parser:
 * plain `JSON.parse` per line (a line holding several glued objects is split at top-level `}{`), no dedupe by uuid.
 *
 * - call: every unique `tool_use` id in an assistant record (a block without an id counts once, as its own call);
 * - paired: some `tool_result` anywhere in the home carries its id; error: some such result has `is_error: true`;
 * - tokens per session: one response per `message.id` + `requestId`, the largest value per field;
 * - a subagent's records copied into its parent's file (`progress` records, `data.type: "agent_progress"`, the
 *   record in `data.message`) count as that subagent's only when the session has no file of that agent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface ToolCount {
  calls: number;
  paired: number;
  errors: number;
}

export interface Tokens {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
}

export interface IndependentCount {
  /** Every `.jsonl` file under the home. */
  readonly files: readonly string[];
  readonly calls: number;
  readonly paired: number;
  readonly errors: number;
  /** By tool name as written. */
  readonly tools: ReadonlyMap<string, ToolCount>;
  /** Tokens of the files of one session, keyed by its main file path (or, for an orphan folder, its folder). */
  readonly tokensBySessionFile: ReadonlyMap<string, Tokens>;
  /** Sessions (as keyed above) holding a response another session holds too (a resume's copies, or the original). */
  readonly sharingSessionFiles: ReadonlySet<string>;
}

/** All `.jsonl` files under a folder, at any depth. */
export function jsonlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlFilesUnder(path));
    else if (entry.name.endsWith('.jsonl')) out.push(path);
  }
  return out.sort();
}

/** The objects on one line: usually one; a client bug can glue several together (`…}{…`). */
export function objectsOfLine(line: string): unknown[] {
  const text = line.trim();
  if (text === '') return [];
  try {
    return [JSON.parse(text)];
  } catch {
    // Try every `}{` boundary outside strings, by brute force: keep the first split where both halves parse.
    for (let i = text.indexOf('}{'); i >= 0; i = text.indexOf('}{', i + 1)) {
      try {
        const head: unknown = JSON.parse(text.slice(0, i + 1));
        return [head, ...objectsOfLine(text.slice(i + 1))];
      } catch {
        // not this boundary
      }
    }
    return [];
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which session a file's tokens count for: the main file itself; a subagent file's parent session file. */
function sessionFileOf(file: string): string {
  const parts = file.split('/');
  const sub = parts.lastIndexOf('subagents');
  if (sub > 1) return `${parts.slice(0, sub).join('/')}.jsonl`;
  return file;
}

export function countHome(home: string): IndependentCount {
  const files = jsonlFilesUnder(home);
  const callNames = new Map<string, string>();
  const resultError = new Map<string, boolean>();
  const tokens = new Map<string, Map<string, Tokens>>();
  let anonymous = 0;
  const flatAgentSession = new Map<string, string>();
  /** The agent_progress copies of each file: the agent and the copied record, with a key for its response. */
  const copiesOf = new Map<string, { agentId: string; record: Obj; key: string }[]>();
  /** Counts one user or assistant record (a file's own, or a copy); `lineKey` keys a response without an id. */
  const countRecord = (record: Obj, lineKey: string, responses: Map<string, Tokens>) => {
    const message = isObj(record.message) ? record.message : {};
    const content = Array.isArray(message.content) ? message.content : [];
    if (record.type === 'assistant') {
      for (const block of content) {
        if (!isObj(block) || block.type !== 'tool_use') continue;
        const name = typeof block.name === 'string' ? block.name : '(no name)';
        if (typeof block.id === 'string' && block.id !== '') {
          if (!callNames.has(block.id)) callNames.set(block.id, name);
        } else {
          anonymous += 1;
          callNames.set(`\u0000anonymous-${anonymous}`, name);
        }
      }
      const usage = isObj(message.usage) ? message.usage : undefined;
      if (usage && message.model !== '<synthetic>') {
        // Without a message id, each record is its own response.
        const key = typeof message.id === 'string' ? `${message.id}\u0000${String(record.requestId ?? '')}` : lineKey;
        const prev = responses.get(key) ?? { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
        const n = (v: unknown) => (typeof v === 'number' ? v : 0);
        responses.set(key, {
          input: Math.max(prev.input, n(usage.input_tokens)),
          output: Math.max(prev.output, n(usage.output_tokens)),
          cacheCreation: Math.max(prev.cacheCreation, n(usage.cache_creation_input_tokens)),
          cacheRead: Math.max(prev.cacheRead, n(usage.cache_read_input_tokens)),
        });
      }
    } else if (record.type === 'user') {
      for (const block of content) {
        if (!isObj(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        resultError.set(block.tool_use_id, (resultError.get(block.tool_use_id) ?? false) || block.is_error === true);
      }
    }
  };
  for (const file of files) {
    const responses = new Map<string, Tokens>();
    const copies: { agentId: string; record: Obj; key: string }[] = [];
    let firstSessionId: string | undefined;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const lineNo = index + 1;
        for (const record of objectsOfLine(line)) {
          if (!isObj(record)) continue;
          if (firstSessionId === undefined && typeof record.sessionId === 'string') firstSessionId = record.sessionId;
          countRecord(record, `\u0000line ${lineNo}`, responses);
          const data = isObj(record.data) ? record.data : undefined;
          if (
            record.type === 'progress' &&
            data?.type === 'agent_progress' &&
            typeof data.agentId === 'string' &&
            isObj(data.message)
          ) {
            copies.push({ agentId: data.agentId, record: data.message, key: `\u0000copy ${lineNo}` });
          }
        }
      });
    copiesOf.set(file, copies);
    const isFlatAgent = basename(file).startsWith('agent-') && !file.includes('/subagents/');
    if (isFlatAgent && firstSessionId !== undefined) flatAgentSession.set(file, firstSessionId);
    tokens.set(file, responses);
  }
  // Copies count where the session has no file of their agent (`agent-<id>.jsonl` beside or under it).
  const agentFiles = new Set(
    files.filter((f) => basename(f).startsWith('agent-')).map((f) => `${ownerOf(f)}\u0000${basename(f).slice(6, -6)}`),
  );
  function ownerOf(file: string): string {
    const flat = flatAgentSession.get(file);
    return flat !== undefined ? join(file, '..', `${flat}.jsonl`) : sessionFileOf(file);
  }
  for (const [file, copies] of copiesOf) {
    const responses = tokens.get(file) ?? new Map<string, Tokens>();
    for (const copy of copies) {
      if (!agentFiles.has(`${ownerOf(file)}\u0000${copy.agentId}`)) countRecord(copy.record, copy.key, responses);
    }
  }
  // Sum responses per session (a response repeated in several files of one session counts once).
  const perSession = new Map<string, Map<string, Tokens>>();
  for (const [file, responses] of tokens) {
    const owner = ownerOf(file);
    const merged = perSession.get(owner) ?? new Map<string, Tokens>();
    for (const [key, t] of responses) {
      const prev = merged.get(key);
      merged.set(
        key,
        prev
          ? {
              input: Math.max(prev.input, t.input),
              output: Math.max(prev.output, t.output),
              cacheCreation: Math.max(prev.cacheCreation, t.cacheCreation),
              cacheRead: Math.max(prev.cacheRead, t.cacheRead),
            }
          : t,
      );
    }
    perSession.set(owner, merged);
  }
  const sumOf = (responses: Iterable<Tokens>): Tokens => {
    const sum = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
    for (const t of responses) {
      sum.input += t.input;
      sum.output += t.output;
      sum.cacheCreation += t.cacheCreation;
      sum.cacheRead += t.cacheRead;
    }
    return sum;
  };
  const tokensBySessionFile = new Map<string, Tokens>();
  // The sessions holding each response.
  const holders = new Map<string, string[]>();
  for (const [owner, responses] of perSession) {
    tokensBySessionFile.set(owner, sumOf(responses.values()));
    for (const key of responses.keys()) holders.set(key, [...(holders.get(key) ?? []), owner]);
  }
  const sharingSessionFiles = new Set([...holders.values()].filter((h) => h.length > 1).flat());
  const tools = new Map<string, ToolCount>();
  let paired = 0;
  let errors = 0;
  for (const [id, name] of callNames) {
    const t = tools.get(name) ?? { calls: 0, paired: 0, errors: 0 };
    t.calls += 1;
    if (resultError.has(id)) {
      t.paired += 1;
      paired += 1;
    }
    if (resultError.get(id) === true) {
      t.errors += 1;
      errors += 1;
    }
    tools.set(name, t);
  }
  return {
    files,
    calls: callNames.size,
    paired,
    errors,
    tools,
    tokensBySessionFile,
    sharingSessionFiles,
  };
}
