import { readFile } from 'node:fs/promises';
import { groupSessions, type SessionFiles } from '../io/discover.js';
import type { RawCall, RawResult } from '../model/raw.js';
import type { AgentAdapter } from './adapter.js';
import { type ConformanceOptions, discoverAll, readAll, schemaFailures } from './conformance-shared.js';

// The checks on what an adapter reads from its fixtures: every line accounted for, every call paired, every
// result typed.

export async function checkLines(options: ConformanceOptions): Promise<string[]> {
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

export async function checkPairing(options: ConformanceOptions): Promise<string[]> {
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

export async function checkTyping(options: ConformanceOptions): Promise<string[]> {
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
