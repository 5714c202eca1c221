import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { messageOf } from '../errors.js';
import type { DiscoveredFile } from '../io/discover.js';
import type { ReadEnd } from '../io/read-lines.js';
import type { ParseIssue } from '../model/issue.js';
import type { RecordEvent } from '../model/raw.js';
import type { TranscriptRecord } from '../model/record.js';
import { typedResultKinds, typedResultVariantSchemas } from '../model/typed-result.js';
import type { AgentAdapter } from './adapter.js';

// What the conformance checks share: the checks' names and options, and reading an adapter's files whole or from
// an offset.

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

export interface FileRead {
  readonly records: TranscriptRecord[];
  readonly issues: ParseIssue[];
  readonly end: ReadEnd;
}

export async function readAll(
  adapter: AgentAdapter,
  file: DiscoveredFile,
  startOffset = 0,
  startLine = 1,
): Promise<FileRead> {
  const records: TranscriptRecord[] = [];
  const issues: ParseIssue[] = [];
  const onEvent = (event: RecordEvent) => {
    if (event.kind === 'record') records.push(event.record);
    else issues.push(event.issue);
  };
  const end = await adapter.streamRecords(file, onEvent, { startOffset, startLine });
  return { records, issues, end };
}

export async function discoverAll(options: ConformanceOptions): Promise<DiscoveredFile[]> {
  const files: DiscoveredFile[] = [];
  for (const root of options.fixtures) files.push(...(await options.adapter.discover(root)).files);
  return files;
}

/** A file as discovery would describe it, for paths the suite writes itself. */
export async function describeScratch(adapter: AgentAdapter, path: string): Promise<DiscoveredFile> {
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

export const errorText = (error: unknown) => messageOf(error);

export function schemaFailures(where: string, typed: unknown): string[] {
  const kind = (typed as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !(typedResultKinds as readonly string[]).includes(kind)) {
    return [`${where}: kind ${JSON.stringify(kind)} is not a shared result kind`];
  }
  const parsed = typedResultVariantSchemas[kind as (typeof typedResultKinds)[number]].safeParse(typed);
  return parsed.success ? [] : [`${where}: ${kind} result does not validate: ${parsed.error.message.slice(0, 300)}`];
}

/** What must not change between two reads of the same bytes: each record's kind, place and ids, and the issues. */
export function fingerprint(read: FileRead): string[] {
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
