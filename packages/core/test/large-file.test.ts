import { createWriteStream, statfsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamRecords } from '../src/adapters/claude-code/read-records.js';

// V8 cannot hold a string longer than ~512 MiB (2^29 - 24 UTF-16 units); with AGENTDASH_TEST_FULL=1 this file is
// larger than that. By default it is 256 MiB: more than the heap growth allowed below, so a reader that held the
// file (or a large part of it) still fails.
const FULL = process.env.AGENTDASH_TEST_FULL === '1';
const TARGET_BYTES = (FULL ? 620 : 256) * 1024 * 1024;

// The file is generated in the temp folder; a machine without room for it skips this test and says so.
const freeBytes = (() => {
  const fs = statfsSync(tmpdir());
  return fs.bavail * fs.bsize;
})();
const hasRoom = freeBytes > TARGET_BYTES * 2;
if (!hasRoom) {
  describe('reading a large transcript', () => {
    it.skip(`skipped: ${tmpdir()} has ${Math.round(freeBytes / 2 ** 20)} MiB free, the test needs ${Math.round((TARGET_BYTES * 2) / 2 ** 20)} MiB`, () => {});
  });
}

let dir: string;
let file: string;
let linesWritten = 0;

function recordLine(i: number): string {
  return `${JSON.stringify({
    type: i % 2 === 0 ? 'assistant' : 'user',
    uuid: `u-${i}`,
    parentUuid: i === 0 ? null : `u-${i - 1}`,
    sessionId: 'big',
    timestamp: '2026-01-01T00:00:00.000Z',
    message:
      i % 2 === 0
        ? {
            id: `msg_${i}`,
            role: 'assistant',
            content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: 'echo hi' } }],
          }
        : {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: 'x'.repeat(1500) }],
          },
  })}\n`;
}

beforeAll(async () => {
  if (!hasRoom) return;
  dir = await mkdtemp(join(tmpdir(), 'agentdash-large-'));
  file = join(dir, 'large.jsonl');
  const out = createWriteStream(file);
  let bytes = 0;
  const batch: string[] = [];
  while (bytes < TARGET_BYTES) {
    const line = recordLine(linesWritten);
    batch.push(line);
    bytes += Buffer.byteLength(line);
    linesWritten += 1;
    if (batch.length === 4096) {
      if (!out.write(batch.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
      batch.length = 0;
    }
  }
  out.write(batch.join(''));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasRoom)(`reading a ${FULL ? 'transcript larger than V8 string limit' : '256 MiB transcript'}`, () => {
  it('streams every record in bounded memory', async () => {
    const size = (await stat(file)).size;
    expect(size).toBeGreaterThanOrEqual(TARGET_BYTES);
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    let records = 0;
    let toolUses = 0;
    let issues = 0;
    const end = await streamRecords(file, (event) => {
      if (event.kind === 'issue') {
        issues += 1;
        return;
      }
      records += 1;
      if (event.record.kind === 'assistant') toolUses += event.record.content.length;
      if (records % 20_000 === 0) {
        const now = process.memoryUsage();
        peakHeap = Math.max(peakHeap, now.heapUsed);
        peakRss = Math.max(peakRss, now.rss);
      }
    });
    expect({ records, issues, toolUses }).toEqual({ records: linesWritten, issues: 0, toolUses: linesWritten / 2 });
    expect(end.bytesRead).toBe(size);
    expect(end.pendingBytes).toBe(0);
    // Bounded: the reader holds one chunk and one line at a time, never the file.
    expect(peakHeap - before.heapUsed).toBeLessThan(160 * 1024 * 1024);
    expect(peakRss - before.rss).toBeLessThan(320 * 1024 * 1024);
  }, 600_000);
});
