/**
 * show --json and export --format json|envelope|html of a session larger than the heap they are given: real
 * `agentdash` processes (the built bin) with a 64 MB heap, over a generated session whose whole load needs more than
 * that (a child loading it whole in the same heap is checked to fail first). Their output must equal, byte for byte,
 * what the loaded path writes (computed here, in a process without that limit; the HTML page's export time aside).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactIdentifiers, redactSession } from '@agentdash/core/secrets';
import { openIndex } from '@agentdash/index';
import { exportRedaction, readExportAssets, sessionHtmlChunks } from '@agentdash/server';
import { envelopeLines, jsonChunks } from '@agentdash/server/export-formats';
import { prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeJsonText } from './commands/common.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../bin/agentdash.js');
const indexModule = resolve(here, '../../index/dist/index.js');
const HEAP_MB = 64;
const ID = '77777777-2222-4333-8444-555555555555';
const CALLS = 2000;

let dir: string;
let home: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-bounded-'));
  home = join(dir, 'home');
  db = join(dir, 'index.sqlite');
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  const lines = [prompt({ sessionId: ID, uuid: 'u-0', timestamp: at(0) }, 'Build it all')];
  for (let i = 0; i < CALLS; i++) {
    // about 14 KB of output per call, written twice (the content and the structured stdout): ~56 MB in all
    const output = `line ${i} of the build log, step ${i * 7}\n`.repeat(14_000 / 40);
    lines.push(
      toolUse(
        { sessionId: ID, uuid: `a-${i}`, parentUuid: i === 0 ? 'u-0' : `r-${i - 1}`, timestamp: at(2 * i + 1) },
        `msg_${i}`,
        `toolu_${i}`,
        'Bash',
        { command: `make step-${i}` },
      ),
      toolResult(
        { sessionId: ID, uuid: `r-${i}`, parentUuid: `a-${i}`, timestamp: at(2 * i + 2) },
        `toolu_${i}`,
        output,
        false,
        { stdout: output, stderr: '', interrupted: false, isImage: false },
      ),
    );
  }
  writeLines(join(home, 'projects', '-home-user-big', `${ID}.jsonl`), lines);
  const index = openIndex({ dbPath: db });
  await index.refresh([home]);
  index.close();
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** When the HTML page says it was exported: the one part of an export that differs between two runs. */
const EXPORTED_AT = /"exportedAt":"[^"]*"/;
const AT = '2026-11-29T00:00:00.000Z';

/**
 * A process with a small heap: its exit code, stderr, and the SHA-256 of what it wrote to stdout (an HTML page's
 * export time replaced by `AT`).
 */
function child(args: readonly string[]): Promise<{ code: number | null; stderr: string; sha: string }> {
  const proc = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...args], { stdio: 'pipe' });
  const hash = createHash('sha256');
  let stderr = '';
  let head: Buffer | undefined = Buffer.alloc(0);
  const HEAD = 1 << 20;
  const flushHead = () => {
    if (head === undefined) return;
    hash.update(head.toString('latin1').replace(EXPORTED_AT, `"exportedAt":"${AT}"`), 'latin1');
    head = undefined;
  };
  proc.stdout.on('data', (d: Buffer) => {
    if (head === undefined) return hash.update(d);
    head = Buffer.concat([head, d]);
    if (head.length >= HEAD) flushHead();
  });
  proc.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((done) =>
    proc.on('close', (code) => {
      flushHead();
      done({ code, stderr, sha: hash.digest('hex') });
    }),
  );
}

async function sha(chunks: Iterable<string> | AsyncIterable<string>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

describe(`a session larger than a ${HEAP_MB} MB heap`, () => {
  it('cannot be loaded whole in that heap (the test session is big enough)', async () => {
    const script = `const { openIndex } = await import(${JSON.stringify(indexModule)});
      const s = await openIndex({ dbPath: ${JSON.stringify(db)} }).loadSession(${JSON.stringify(ID)});
      process.stdout.write(String(s.calls.length));`;
    const loaded = await child(['--input-type=module', '-e', script]);
    expect(loaded.code).not.toBe(0);
    expect(loaded.stderr).toMatch(/heap out of memory/);
  }, 120_000);

  it('is written by show --json and export --format json|envelope|html in it, as the loaded path writes it', async () => {
    const index = openIndex({ dbPath: db });
    const loaded = await index.loadSession(ID);
    const summary = index.getSession(ID);
    index.close();
    const { session: redacted, report } = redactSession(loaded);
    const page = sessionHtmlChunks(redacted, summary, await readExportAssets(), exportRedaction(true, report), AT);
    const expected = {
      show: await sha([...[...jsonChunks(redactIdentifiers(loaded))].map(safeJsonText), '\n']),
      json: await sha([...jsonChunks(redacted), '\n']),
      envelope: await sha(envelopeLines(redacted)),
      html: await sha(page),
    };
    const common = ['--db', db, home, '--no-progress'];
    const shown = await child([bin, 'show', ID, '--json', ...common]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.sha).toBe(expected.show);
    for (const format of ['json', 'envelope', 'html'] as const) {
      const out = await child([bin, 'export', ID, '--format', format, ...common]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.sha, format).toBe(expected[format]);
    }
  }, 300_000);
});
