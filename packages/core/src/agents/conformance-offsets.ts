import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { messageOf } from '../errors.js';
import type { RecordEvent } from '../model/raw.js';
import { type ConformanceOptions, describeScratch, discoverAll, fingerprint, readAll } from './conformance-shared.js';

// The checks on reading again: the same ids twice, a resumed read equal to a whole one, a record read back alone.

export async function checkStableIds(options: ConformanceOptions): Promise<string[]> {
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
export async function checkResume(options: ConformanceOptions): Promise<string[]> {
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
export async function checkStandAlone(options: ConformanceOptions): Promise<string[]> {
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
        failures.push(`${file.path}:${line}: ${messageOf(error)}`);
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
