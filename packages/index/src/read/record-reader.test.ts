import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adapterForFile,
  type ByteSource,
  type DiscoveredFile,
  discoverAll,
  openFileBytes,
  type TranscriptRecord,
} from '@agentdash/core';
import { describe, expect, it } from 'vitest';
import { RecordReader } from './record-reader.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../../core/test/fixtures');

/** Every record of a file, read whole. */
async function wholeRead(file: DiscoveredFile): Promise<TranscriptRecord[]> {
  const records: TranscriptRecord[] = [];
  await adapterForFile(file).streamRecords(file, (event) => {
    if (event.kind === 'record') records.push(event.record);
  });
  return records;
}

/** A reader that counts the bytes it reads of each file. */
function countingReader(): { reader: RecordReader; bytesRead: Map<string, number> } {
  const bytesRead = new Map<string, number>();
  const reader = new RecordReader(async (path): Promise<ByteSource> => {
    const source = await openFileBytes(path);
    return {
      async read(buffer, offset, length, position) {
        const result = await source.read(buffer, offset, length, position);
        bytesRead.set(path, (bytesRead.get(path) ?? 0) + result.bytesRead);
        return result;
      },
      close: () => source.close(),
    };
  });
  return { reader, bytesRead };
}

describe('reading records back at their places', () => {
  it.each([
    ['Codex (a line needs the lines before it)', join(fixtures, 'codex/0.169.0/codex-home')],
    ['Gemini (a file is one document)', join(fixtures, 'gemini/0.61.0/.gemini')],
    ['Claude Code (each line stands alone)', join(fixtures, 'claude/claude-home')],
  ])(
    '%s: gives every record a whole read gives there; a file whose lines need the ones before is read once',
    async (_label, home) => {
      const files = (await discoverAll([home])).files;
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) {
        const records = await wholeRead(file);
        if (records.length === 0) continue;
        const places = records.map((r) => ({ file, line: r.loc.line, offset: r.loc.offset }));
        const { reader, bytesRead } = countingReader();
        const found = await reader.recordsAt(places);
        places.forEach((place, i) => {
          const expected = records.filter((r) => r.loc.line === place.line && r.loc.offset === place.offset);
          expect(found[i], `${file.path}:${place.line}`).toEqual(expected);
        });
        // Where a line needs the lines before it, one pass over the file serves all its places.
        if (!adapterForFile(file).capabilities.linesStandAlone) {
          expect(bytesRead.get(file.path) ?? 0).toBeLessThanOrEqual(statSync(file.path).size);
        }
      }
    },
  );

  it('Claude Code: places asked in any order and more than once are each read once, and all get their records', async () => {
    const files = (await discoverAll([join(fixtures, 'claude/claude-home')])).files;
    const file = [...files].sort((a, b) => statSync(b.path).size - statSync(a.path).size)[0] as DiscoveredFile;
    const records = await wholeRead(file);
    const once = [...new Map(records.map((r) => [r.loc.offset, { file, line: r.loc.line, offset: r.loc.offset }]))];
    const places = [...once, ...once].map(([, place]) => place).reverse();
    const readsAt = new Map<number, number>();
    const reader = new RecordReader(async (path): Promise<ByteSource> => {
      const source = await openFileBytes(path);
      return {
        read: (buffer, offset, length, position) => {
          readsAt.set(position, (readsAt.get(position) ?? 0) + 1);
          return source.read(buffer, offset, length, position);
        },
        close: () => source.close(),
      };
    });
    const found = await reader.recordsAt(places);
    places.forEach((place, i) => {
      expect(found[i]).toEqual(records.filter((r) => r.loc.line === place.line && r.loc.offset === place.offset));
    });
    expect(once.length).toBeGreaterThan(10);
    for (const [offset] of once) expect(readsAt.get(offset), `offset ${offset}`).toBe(1);
  });
});
