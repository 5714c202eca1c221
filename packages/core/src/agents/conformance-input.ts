import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { RawCall, RawResult } from '../model/raw.js';
import type { AgentAdapter } from './adapter.js';
import { type ConformanceOptions, describeScratch, errorText, readAll, schemaFailures } from './conformance-shared.js';

// The checks on what an adapter accepts: its own folders and no other, hostile bytes and calls, its declared
// label and resume words.

export async function checkRecognizes({ adapter, fixtures, scratchDir }: ConformanceOptions): Promise<string[]> {
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

export async function checkDiscovers(options: ConformanceOptions): Promise<string[]> {
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

export async function checkHostile({ adapter, scratchDir }: ConformanceOptions): Promise<string[]> {
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

/** What the dashboard shows of the agent: a label, and resume words (or null) it can quote into a command. */
export function checkDeclared(adapter: AgentAdapter): string[] {
  const failures: string[] = [];
  if (adapter.label.trim() === '') failures.push('its label is empty');
  if (adapter.resume !== null && (adapter.resume.length === 0 || adapter.resume.some((w) => w.trim() === ''))) {
    failures.push(`its resume words ${JSON.stringify(adapter.resume)} name no command: declare null when it cannot`);
  }
  return failures;
}
