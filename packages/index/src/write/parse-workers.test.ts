import { appendFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles } from '@agentdash/core';
import { dumpIndex } from '@agentdash/testing/dump';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { threadNiceValues } from '../../test/threads.js';
import { chunkContent } from '../../test/zstd-frames.js';
import { CHUNK_BYTES } from '../archive/archive.js';
import { openIndex } from '../index.js';
import { defaultParseWorkers, ParsePool } from './parse-pool.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../../core/test/fixtures');
/** Other agents' homes: a Codex home (append-only rollouts) and a Gemini one (session documents rewritten whole). */
const otherHomes = [
  join(fixtures, 'codex/0.169.0/codex-home'),
  join(fixtures, 'gemini/0.61.0/.gemini'),
  join(fixtures, 'copilot/1.0.102/copilot-home'),
];

let dir: string;
let home: string;
/** The transcript larger than an archive chunk. */
let bigFile: string;
beforeAll(() => {
  ({ dir, home } = copySamplesHome('agentdash-workers-'));
  // Oddities a worker must report as the writer does: bad JSON, glued records, a call copied into a second file,
  // a result before its call, a call without result.
  const sid = '77777777-2222-4333-8444-555555555555';
  const b = basesOf(sid);
  const file = join(home, 'projects', '-home-user-proj-odd', `${sid}.jsonl`);
  writeLines(file, [
    prompt(b('u1', null, 0), 'run it'),
    toolResult(b('r0', 'u1', 1), 'toolu_late', 'a result before its call', false),
    toolUse(b('a1', 'r0', 2), 'msg_1', 'toolu_late', 'Bash', { command: 'ls' }),
    toolUse(b('a2', 'a1', 3), 'msg_2', 'toolu_open', 'Read', { file_path: '/etc/hosts' }),
    toolUse(b('a3', 'a2', 4), 'msg_3', 'toolu_x', 'Bash', { command: 'false' }),
    toolResult(b('r3', 'a3', 5), 'toolu_x', 'exit code 1', true),
  ]);
  appendFileSync(file, '{"type":"user",\n');
  appendFileSync(file, `${prompt(b('u9', 'r3', 6), 'one')}${prompt(b('u10', 'u9', 7), 'two')}\n`);
  writeLines(join(home, 'projects', '-home-user-proj-odd', '77777777-2222-4333-8444-666666666666.jsonl'), [
    prompt({ ...b('c1', null, 8), sessionId: '77777777-2222-4333-8444-666666666666' }, 'a fork'),
    toolUse({ ...b('a3', 'c1', 4), sessionId: '77777777-2222-4333-8444-666666666666' }, 'msg_3', 'toolu_x', 'Bash', {
      command: 'false',
    }),
  ]);
  // Larger than an archive chunk (4 MiB; about 6 MB, so two chunks): the worker compresses the bytes it parses, chunk
  // by chunk.
  const big = '77777777-2222-4333-8444-777777777777';
  const at = (uuid: string, parent: string | null, second: number) => ({
    ...basesOf(big)(uuid, parent, 0),
    timestamp: new Date(Date.UTC(2026, 0, 2, 10) + second * 1000).toISOString(),
  });
  const filler = 'the same words, compressed as the writer thread would. '.repeat(30);
  bigFile = join(home, 'projects', '-home-user-proj-odd', `${big}.jsonl`);
  writeLines(
    bigFile,
    Array.from({ length: 1500 }, (_, i) => [
      toolUse(at(`ba${i}`, i === 0 ? null : `br${i - 1}`, 2 * i), `msg_b${i}`, `toolu_b${i}`, 'Bash', {
        command: `echo ${i} ${filler}`,
      }),
      toolResult(at(`br${i}`, `ba${i}`, 2 * i + 1), `toolu_b${i}`, `${i} ${filler}`, false),
    ]).flat(),
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The archive's chunks as what they hold (`chunkContent`), not as their compressed bytes: the writer thread compresses
 * asynchronously, the workers synchronously, and Node 22 and 24's async zstd may write another frame header.
 */
function archived(dbPath: string): unknown[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT path, offset, length, codec, data FROM archive_chunks ORDER BY path, offset')
      .raw()
      .all() as [string, number, number, number, Buffer][];
    return rows.map((row) => chunkContent(...row));
  } finally {
    db.close();
  }
}

describe('parse workers', () => {
  it('leave a core to the writer: one worker on two cores, two on more', () => {
    expect([1, 2, 3, 4, 16].map(defaultParseWorkers)).toEqual([1, 1, 2, 2, 2]);
  });

  it('is built (the workers run the built script)', () => {
    expect(existsSync(resolve(here, '../../dist/write/parse-worker.js'))).toBe(true);
  });

  it.runIf(process.platform === 'linux')('run at a lower priority than the writer thread (Linux)', async () => {
    // Ten steps below this process's own nice value (the test run may be niced itself), at most 19.
    const own = threadNiceValues()[0] as number;
    const lower = Math.min(19, own + 10);
    const before = threadNiceValues().filter((n) => n === lower).length;
    const pool = ParsePool.create(2);
    expect(pool).toBeDefined();
    if (pool === undefined) return;
    try {
      const { files } = await discoverFiles([join(home, 'projects')]);
      // A job each (both submitted first: the second goes to the worker with nothing to read, where submitting it
      // after the first had ended could give it to the same worker, leaving the other not yet started, as on Node 22
      // under load), read to its end: both workers have run their script's start by then.
      const jobs = files.slice(0, 2).map((file) => pool.submit(file, null, false));
      expect(new Set(jobs.map((job) => job.worker)).size).toBe(2);
      for (const job of jobs) {
        let message = await job.next();
        while (message.type === 'ops') message = await job.next();
      }
      expect(threadNiceValues().filter((n) => n === lower).length - before).toBe(2);
      expect(threadNiceValues()[0]).toBe(own);
    } finally {
      await pool.close();
    }
  });

  it('store the same index and archive as reading every file in the writer thread', async () => {
    const reports = [];
    for (const parseWorkers of [0, 2]) {
      const index = openIndex({ dbPath: join(dir, `w${parseWorkers}.sqlite`) });
      reports.push(await index.refresh([home, ...otherHomes], { parseWorkers }));
      index.close();
    }
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[0]?.newIssues).toBeGreaterThan(0);
    const withWorkers = dumpIndex(join(dir, 'w2.sqlite'));
    expect(withWorkers).toEqual(dumpIndex(join(dir, 'w0.sqlite')));
    const agents = new Set(withWorkers.sessions.map((row) => (JSON.parse(row) as { agent: string }).agent));
    expect([...agents].sort()).toEqual(['claude', 'codex', 'copilot', 'gemini']);
    const chunks = archived(join(dir, 'w0.sqlite'));
    // Every file archived, the big one in two chunks.
    expect(statSync(bigFile).size).toBeGreaterThan(CHUNK_BYTES);
    expect(chunks.length).toBeGreaterThan(reports[0]?.files ?? 0);
    expect(archived(join(dir, 'w2.sqlite'))).toEqual(chunks);
  });
});
