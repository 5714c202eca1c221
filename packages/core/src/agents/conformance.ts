import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { type DiscoveredFile, groupSessions, type SessionFiles } from '../io/discover.js';
import type { ReadEnd } from '../io/read-lines.js';
import type { ParseIssue } from '../model/issue.js';
import type { RawCall, RawResult, RecordEvent } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';
import { typedResultKinds, typedResultVariantSchemas } from '../model/typed-result.js';
import type { AgentAdapter } from './adapter.js';

/*
 * The checks every agent adapter passes, over its own bundled fixtures (hono's router tests, which every router
 * runs, are the model). Each check returns its failures as sentences, so a test asserts `toEqual([])` and a
 * failure says what broke. An adapter skips a check only with a written reason.
 */

export const conformanceChecks = [
  'recognizes its fixtures and nothing else',
  'discovers its fixtures, each file carrying its agent',
  'never throws on hostile input',
  'accounts for every line as a record or an issue',
  'pairs every tool call or reports it',
  'types every result onto a kind that validates',
  'gives the same ids on two reads',
  'resumes from an offset as a whole read does',
  'reads a record back from its offset alone',
  'declares its label and how its CLI resumes',
] as const;
export type ConformanceCheck = (typeof conformanceChecks)[number];

export interface ConformanceSkip {
  readonly checks: readonly ConformanceCheck[];
  /** Why the check does not apply to this agent: required, and shown in the test name. */
  readonly reason: string;
}

export interface ConformanceOptions {
  readonly adapter: AgentAdapter;
  /** Folders holding the adapter's bundled fixtures: each a home or a folder its `discover` accepts. */
  readonly fixtures: readonly string[];
  /** A folder the suite may write hostile and truncated copies into (the test creates and removes it). */
  readonly scratchDir: string;
  /** Tool call ids of the fixtures known to have no result, with why (a crashed or cut-off session). */
  readonly knownUnpaired?: Readonly<Record<string, string>>;
  readonly skip?: readonly ConformanceSkip[];
}

export interface ConformanceCase {
  readonly check: ConformanceCheck;
  /** Set when the adapter skips the check. */
  readonly skipReason: string | undefined;
  /** The failures; empty when the adapter conforms. */
  run(): Promise<string[]>;
}

/** The suite for one adapter, one case per check, in `conformanceChecks` order. */
export function conformanceCases(options: ConformanceOptions): ConformanceCase[] {
  const skipReason = (check: ConformanceCheck): string | undefined => {
    const skip = options.skip?.find((s) => s.checks.includes(check));
    if (skip !== undefined) return skip.reason;
    if (check === 'resumes from an offset as a whole read does' && !options.adapter.capabilities.appendOnly) {
      return 'not append-only: a changed file is read whole, never resumed';
    }
    if (check === 'reads a record back from its offset alone' && !options.adapter.capabilities.linesStandAlone) {
      return 'lines do not stand alone: a record is read back by reading its file from the start';
    }
    return undefined;
  };
  const runs: Record<ConformanceCheck, () => Promise<string[]>> = {
    'recognizes its fixtures and nothing else': () => checkRecognizes(options),
    'discovers its fixtures, each file carrying its agent': () => checkDiscovers(options),
    'never throws on hostile input': () => checkHostile(options),
    'accounts for every line as a record or an issue': () => checkLines(options),
    'pairs every tool call or reports it': () => checkPairing(options),
    'types every result onto a kind that validates': () => checkTyping(options),
    'gives the same ids on two reads': () => checkStableIds(options),
    'resumes from an offset as a whole read does': () => checkResume(options),
    'reads a record back from its offset alone': () => checkStandAlone(options),
    'declares its label and how its CLI resumes': async () => checkDeclared(options.adapter),
  };
  return conformanceChecks.map((check) => ({ check, skipReason: skipReason(check), run: runs[check] }));
}

interface FileRead {
  readonly records: TranscriptRecord[];
  readonly issues: ParseIssue[];
  readonly end: ReadEnd;
}

async function readAll(adapter: AgentAdapter, file: DiscoveredFile, startOffset = 0, startLine = 1): Promise<FileRead> {
  const records: TranscriptRecord[] = [];
  const issues: ParseIssue[] = [];
  const onEvent = (event: RecordEvent) => {
    if (event.kind === 'record') records.push(event.record);
    else issues.push(event.issue);
  };
  const end = await adapter.streamRecords(file, onEvent, { startOffset, startLine });
  return { records, issues, end };
}

async function discoverAll(options: ConformanceOptions): Promise<DiscoveredFile[]> {
  const files: DiscoveredFile[] = [];
  for (const root of options.fixtures) files.push(...(await options.adapter.discover(root)).files);
  return files;
}

/** A file as discovery would describe it, for paths the suite writes itself. */
async function describeScratch(adapter: AgentAdapter, path: string): Promise<DiscoveredFile> {
  const info = await stat(path);
  return {
    path,
    agent: adapter.id,
    projectDir: dirname(path),
    role: 'main',
    sessionId: undefined,
    agentId: undefined,
    metaPath: undefined,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ino: info.ino,
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function checkRecognizes({ adapter, fixtures, scratchDir }: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  for (const root of fixtures) {
    if (!(await adapter.recognizes(root))) failures.push(`does not recognise its fixture folder ${root}`);
  }
  const empty = join(scratchDir, 'empty-folder');
  await mkdir(empty, { recursive: true });
  if (await adapter.recognizes(empty)) failures.push('recognises an empty folder');
  if (await adapter.recognizes(join(scratchDir, 'no-such-path')))
    failures.push('recognises a path that does not exist');
  const text = join(scratchDir, 'notes.txt');
  await writeFile(text, 'not a transcript\n');
  if (await adapter.recognizes(text)) failures.push('recognises a text file');
  return failures;
}

async function checkDiscovers(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  for (const root of options.fixtures) {
    const { files, folders } = await options.adapter.discover(root);
    if (files.length === 0) failures.push(`finds no file under ${root}`);
    const paths = new Set(files.map((f) => f.path));
    if (paths.size !== files.length) failures.push(`lists a file twice under ${root}`);
    // An index tells that nothing came or went from the folders discovery listed: each folder from the root down to
    // each file is one, noted with the mtime it has (nothing changes them while the suite runs).
    const listed = new Map<string, number[]>();
    for (const [path, mtimeMs] of folders) listed.set(path, [...(listed.get(path) ?? []), mtimeMs]);
    const top = resolve(root);
    for (const file of files) {
      if (file.agent !== options.adapter.id) failures.push(`${file.path} carries agent "${file.agent}"`);
      // The folders from the file's own up to the root (none for a root that is the file itself).
      const under = (folder: string) => folder === top || folder.startsWith(top.endsWith(sep) ? top : top + sep);
      for (let folder = dirname(file.path); file.path !== top && under(folder); folder = dirname(folder)) {
        const mtimeMs = (await stat(folder)).mtimeMs;
        if (!(listed.get(folder)?.every((m) => m === mtimeMs) ?? false)) {
          failures.push(`${file.path}: ${folder} is not among the folders listed, with its mtime`);
        }
        if (folder === top) break;
      }
      const info = await stat(file.path).catch(() => undefined);
      if (info?.size !== file.size) failures.push(`${file.path}: size ${file.size} is not the file's`);
    }
  }
  return failures;
}

const DEEP = 2_200;
/** Inputs no adapter may throw on: empty, blank, garbage, cut off, too deep, wrong JSON types, bad bytes. */
function hostileInputs(): Record<string, string | Uint8Array> {
  return {
    empty: '',
    blank: '\n\n  \r\n\n',
    garbage: 'not json at all\n}{\n\u0000\u0000\u0000\n',
    truncated: '{"type":"user","message":{"content":"cut off here',
    'json-scalars': '42\nnull\n"text"\ntrue\n[]\n[1,2,3]\n{}\n',
    'deep-array': `${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`,
    'deep-object': `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}\n`,
    'deep-fields': `{"type":"user","id":"x","uuid":"x","content":${'['.repeat(DEEP)}${']'.repeat(DEEP)},"payload":${'{"b":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}\n`,
    'invalid-utf8': new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d, 0x0a]),
    'huge-string': `{"type":"user","text":"${'x'.repeat(2 * 1024 * 1024)}"}\n`,
    'wrong-types':
      '{"type":7,"uuid":[],"sessionId":{},"message":"m","payload":[],"messages":"none","timestamp":false}\n',
  };
}

async function checkHostile({ adapter, scratchDir }: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, content] of Object.entries(hostileInputs())) {
    // The same content under the names an agent's files have, so an adapter that picks its decoder by name sees it.
    for (const extension of ['jsonl', 'json']) {
      const path = join(scratchDir, 'hostile', `${name}.${extension}`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      try {
        const read = await readAll(adapter, await describeScratch(adapter, path));
        const blank = typeof content === 'string' && content.trim() === '';
        if (!blank && read.records.length === 0 && read.issues.length === 0 && read.end.pendingBytes === 0) {
          failures.push(`${name}.${extension}: neither a record nor an issue`);
        }
      } catch (error) {
        failures.push(`${name}.${extension}: streamRecords threw ${errorText(error)}`);
      }
    }
  }
  for (const call of hostileCalls()) {
    try {
      const result = adapter.typeResult(call, hostileResult(call));
      failures.push(...schemaFailures(`typeResult(${JSON.stringify(call.name)})`, result.typed));
      adapter.durationsOf?.(call, undefined);
      adapter.canonicalToolName(call.name);
    } catch (error) {
      failures.push(`typeResult(${JSON.stringify(call.name)}) threw ${errorText(error)}`);
    }
  }
  return failures;
}

function hostileCalls(): RawCall[] {
  const deep = JSON.parse(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`) as unknown;
  const names = ['', 'Bash', 'Read', 'Edit', 'shell', 'apply_patch', 'run_shell_command', 'mcp__x__y', '__proto__'];
  return names.map((name, index) => ({
    id: `hostile-${index}` as RawCall['id'],
    name,
    input: index % 2 === 0 ? deep : { command: 7, file_path: null, patch: [] },
    timestamp: 'not a time' as RawCall['timestamp'],
    loc: { file: 'hostile.jsonl', line: index + 1, offset: 0 },
    messageId: undefined,
  }));
}

function hostileResult(call: RawCall): RawResult {
  return {
    toolUseId: call.id,
    uuid: `result-${call.id}` as RawResult['uuid'],
    timestamp: undefined,
    loc: call.loc,
    isError: call.name.length % 2 === 1,
    content: [{ kind: 'unknown', type: 'odd', raw: call.input }],
    toolUseResult: call.input,
  };
}

function schemaFailures(where: string, typed: unknown): string[] {
  const kind = (typed as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !(typedResultKinds as readonly string[]).includes(kind)) {
    return [`${where}: kind ${JSON.stringify(kind)} is not a shared result kind`];
  }
  const parsed = typedResultVariantSchemas[kind as (typeof typedResultKinds)[number]].safeParse(typed);
  return parsed.success ? [] : [`${where}: ${kind} result does not validate: ${parsed.error.message.slice(0, 300)}`];
}

async function checkLines(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  for (const file of await discoverAll(options)) {
    const read = await readAll(options.adapter, file);
    const covered = new Set<number>([...read.records.map((r) => r.loc.line), ...read.issues.map((i) => i.line)]);
    const lines = (await readFile(file.path, 'utf8')).split('\n');
    lines.forEach((text, index) => {
      const held = index === lines.length - 1 && read.end.pendingBytes > 0;
      if (text.trim() !== '' && !held && !covered.has(index + 1)) failures.push(`${file.path}:${index + 1} is lost`);
    });
  }
  return failures;
}

interface SessionCalls {
  readonly calls: Map<string, RawCall>;
  readonly results: Map<string, RawResult>;
}

/** Calls and results of one session, over all its files, as found in the records. */
async function callsOf(adapter: AgentAdapter, group: SessionFiles): Promise<SessionCalls> {
  const calls = new Map<string, RawCall>();
  const results = new Map<string, RawResult>();
  for (const file of [group.main, ...group.subagents]) {
    if (file === undefined) continue;
    for (const record of (await readAll(adapter, file)).records) {
      if ((record.kind !== 'assistant' && record.kind !== 'user') || typeof record.content === 'string') continue;
      const toolResults = record.content.filter((b) => b.kind === 'tool-result').length;
      for (const block of record.content) {
        if (block.kind === 'tool-use' && !calls.has(block.id)) {
          const messageId = record.kind === 'assistant' ? record.messageId : undefined;
          calls.set(block.id, { ...block, timestamp: record.timestamp, loc: record.loc, messageId });
        }
        if (block.kind === 'tool-result' && !results.has(block.toolUseId) && record.kind === 'user') {
          results.set(block.toolUseId, {
            toolUseId: block.toolUseId,
            uuid: record.uuid,
            timestamp: record.timestamp,
            loc: record.loc,
            isError: block.isError,
            content: block.content,
            toolUseResult: toolResults === 1 ? record.toolUseResult : undefined,
          });
        }
      }
    }
  }
  return { calls, results };
}

async function checkPairing(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  let calls = 0;
  for (const group of groupSessions(await discoverAll(options))) {
    const found = await callsOf(options.adapter, group);
    calls += found.calls.size;
    for (const [id, call] of found.calls) {
      if (id === '') failures.push(`${call.loc.file}:${call.loc.line}: a tool call without an id`);
      else if (!found.results.has(id) && options.knownUnpaired?.[id] === undefined) {
        failures.push(`${call.loc.file}:${call.loc.line}: call ${id} (${call.name}) has no result`);
      }
    }
    for (const [id, result] of found.results) {
      if (!found.calls.has(id)) failures.push(`${result.loc.file}:${result.loc.line}: result ${id} has no call`);
    }
  }
  if (calls === 0) failures.push('the fixtures hold no tool call: add one so pairing and typing are checked');
  return failures;
}

async function checkTyping(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  const kinds = new Set<string>();
  for (const group of groupSessions(await discoverAll(options))) {
    const { calls, results } = await callsOf(options.adapter, group);
    for (const [id, call] of calls) {
      const canonical = options.adapter.canonicalToolName(call.name);
      if (options.adapter.canonicalToolName(canonical) !== canonical) {
        failures.push(`canonicalToolName is not stable for ${call.name}`);
      }
      const raw = results.get(id);
      if (raw === undefined) continue;
      const result = options.adapter.typeResult(call, raw);
      kinds.add(result.typed.kind);
      failures.push(...schemaFailures(`${call.loc.file}:${call.loc.line} ${call.name}`, result.typed));
      if (result.toolUseId !== id) failures.push(`${call.name} ${id}: typed result carries id ${result.toolUseId}`);
      if (result.isError !== raw.isError) failures.push(`${call.name} ${id}: isError changed while typing`);
      for (const duration of options.adapter.durationsOf?.(call, raw) ?? []) {
        if (!(duration.ms >= 0))
          failures.push(`${call.name} ${id}: duration ${duration.ms} ms from ${duration.source}`);
      }
    }
  }
  if ([...kinds].every((kind) => kind === 'unknown' || kind === 'error')) {
    failures.push('no fixture result is typed onto a known kind');
  }
  return failures;
}

/** What must not change between two reads of the same bytes: each record's kind, place and ids, and the issues. */
function fingerprint(read: FileRead): string[] {
  const ids = (record: TranscriptRecord): string => {
    const uuid = 'uuid' in record ? record.uuid : '';
    const blocks =
      (record.kind === 'assistant' || record.kind === 'user') && typeof record.content !== 'string'
        ? record.content.map((b) => (b.kind === 'tool-use' ? b.id : b.kind === 'tool-result' ? b.toolUseId : b.kind))
        : [];
    return `${record.kind}@${record.loc.line}:${record.loc.offset} ${uuid} ${blocks.join(',')}`;
  };
  return [...read.records.map(ids), ...read.issues.map((i) => `issue ${i.code}@${i.line}`)];
}

async function checkStableIds(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  for (const file of await discoverAll(options)) {
    const first = fingerprint(await readAll(options.adapter, file));
    const second = fingerprint(await readAll(options.adapter, file));
    const at = first.findIndex((line, index) => line !== second[index]);
    if (at !== -1 || first.length !== second.length) {
      failures.push(`${file.path}: the second read differs at ${at}: ${first[at]} vs ${second[at]}`);
    }
  }
  return failures;
}

/**
 * Resuming: a copy of each fixture cut inside its last line must hold that line back; appending the rest and
 * resuming from the returned offset must give what a whole read gives. A read from a record's own offset must give
 * the whole read's records from there on.
 */
async function checkResume(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  const { adapter } = options;
  let index = 0;
  for (const file of await discoverAll(options)) {
    const whole = await readAll(adapter, file);
    const wholePrints = fingerprint(whole).filter((line) => !line.startsWith('issue'));
    const middle = whole.records[Math.floor(whole.records.length / 2)];
    if (middle !== undefined && middle.loc.offset !== undefined) {
      const tail = await readAll(adapter, file, middle.loc.offset, middle.loc.line);
      const tailPrints = fingerprint(tail).filter((line) => !line.startsWith('issue'));
      const expected = wholePrints.slice(wholePrints.length - tailPrints.length);
      if (tailPrints.length === 0 || JSON.stringify(tailPrints) !== JSON.stringify(expected)) {
        failures.push(`${file.path}: reading from line ${middle.loc.line} differs from the whole read's tail`);
      }
    }
    const bytes = await readFile(file.path);
    const lastLine = bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a) + 1;
    const cut = lastLine + Math.max(1, Math.floor((bytes.length - lastLine) / 2));
    if (cut >= bytes.length - 1) continue;
    index += 1;
    const copy = join(options.scratchDir, 'resume', `${index}`, file.path.split(/[\\/]/).pop() ?? 'copy');
    await mkdir(dirname(copy), { recursive: true });
    await writeFile(copy, bytes.subarray(0, cut));
    const first = await readAll(adapter, { ...(await describeScratch(adapter, copy)), role: file.role });
    if (first.end.pendingBytes === 0 || first.end.nextOffset !== lastLine) {
      failures.push(`${file.path}: a last line cut in half is not held back (next offset ${first.end.nextOffset})`);
      continue;
    }
    await appendFile(copy, bytes.subarray(cut));
    const rest = await readAll(
      adapter,
      { ...(await describeScratch(adapter, copy)), role: file.role },
      first.end.nextOffset,
      first.end.nextLine,
    );
    const resumed = [...fingerprint(first), ...fingerprint(rest)].filter((line) => !line.startsWith('issue'));
    if (JSON.stringify(resumed) !== JSON.stringify(wholePrints)) {
      failures.push(`${file.path}: resuming after a cut last line differs from a whole read`);
    }
  }
  return failures;
}

/**
 * `linesStandAlone`: each record, read from its offset with only the bytes of its line (and the line feed before it)
 * to be had (a read before them fails), is the record a whole read gives there (the index reads tool inputs and search snippets back this way).
 */
async function checkStandAlone(options: ConformanceOptions): Promise<string[]> {
  const failures: string[] = [];
  const { adapter } = options;
  for (const file of await discoverAll(options)) {
    const bytes = await readFile(file.path);
    const whole = await readAll(adapter, file);
    for (const record of whole.records) {
      const { line, offset } = record.loc;
      if (offset === undefined) continue;
      const newline = bytes.indexOf(0x0a, offset);
      const end = newline === -1 ? bytes.length : newline + 1;
      const alone: RecordEvent[] = [];
      try {
        await adapter.streamRecords(file, (event) => alone.push(event), {
          startOffset: offset,
          startLine: line,
          open: async () => ({
            async read(buffer: Uint8Array, at: number, length: number, position: number) {
              // The line feed before the record may be read (a resumed read checks it ends the line before).
              const from = Math.max(0, offset - 1);
              if (position < from) throw new Error(`read at ${position}, before the record's line (${offset})`);
              const n = Math.max(0, Math.min(length, end - position));
              buffer.set(bytes.subarray(position, position + n), at);
              return { bytesRead: n };
            },
            async close() {},
          }),
        });
      } catch (error) {
        failures.push(`${file.path}:${line}: ${error instanceof Error ? error.message : String(error)}`);
        break;
      }
      const same = alone.filter(
        (e): e is Extract<RecordEvent, { kind: 'record' }> =>
          e.kind === 'record' && e.record.loc.line === line && e.record.loc.offset === offset,
      );
      const expected = whole.records.filter((r) => r.loc.line === line && r.loc.offset === offset);
      if (JSON.stringify(same.map((e) => e.record)) !== JSON.stringify(expected)) {
        failures.push(`${file.path}:${line}: the record read from its offset alone differs from the whole read's`);
        break;
      }
    }
  }
  return failures;
}

/** What the dashboard shows of the agent: a label, and resume words (or null) it can quote into a command. */
function checkDeclared(adapter: AgentAdapter): string[] {
  const failures: string[] = [];
  if (adapter.label.trim() === '') failures.push('its label is empty');
  if (adapter.resume !== null && (adapter.resume.length === 0 || adapter.resume.some((w) => w.trim() === ''))) {
    failures.push(`its resume words ${JSON.stringify(adapter.resume)} name no command: declare null when it cannot`);
  }
  return failures;
}
