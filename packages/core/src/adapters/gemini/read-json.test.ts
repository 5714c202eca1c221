import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { WRITE_SETTLE_MS } from '../../io/read-lines.js';
import type { ParseIssue } from '../../model/issue.js';
import { streamGeminiRecords } from './stream-records.js';
import { home020 } from './test-helpers.js';

/** A real 0.20.2 session document (the files scenario), bundled and in the corpus. */
const documentPath =
  'tmp/6c8e5834e9089896c09e0efc10c518ca552d8e8c9fabe86bf4531e7dbfdb5d42/chats/session-2026-11-23T00-27-ae75b182.json';
const corpus020 = resolve(repoRoot, '../shared/corpus-agents/gemini/0.20.2/gemini-home/.gemini');
const sources = [
  { name: 'bundled 0.20.2 document', path: join(home020, documentPath), present: true },
  {
    name: 'corpus 0.20.2 document (skipped without ../shared)',
    path: join(corpus020, documentPath),
    present: existsSync(join(corpus020, documentPath)),
  },
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdash-gemini-doc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The document cut at half its bytes (as a rewrite caught half-way, or one the client never finished), last written `ageMs` ago. */
async function cutDocument(source: string, ageMs: number): Promise<{ path: string; bytes: number }> {
  const whole = readFileSync(source);
  const cut = whole.subarray(0, Math.floor(whole.length / 2));
  const path = join(dir, 'session-2026-11-23T00-27-ae75b182.json');
  await writeFile(path, cut);
  const written = (Date.now() - ageMs) / 1000;
  await utimes(path, written, written);
  return { path, bytes: cut.length };
}

async function read(path: string, mtimeMs: number | undefined) {
  const issues: ParseIssue[] = [];
  let records = 0;
  const ref = { path, projectDir: dir, role: 'main' as const, sessionId: undefined, agentId: undefined };
  const end = await streamGeminiRecords(mtimeMs === undefined ? ref : { ...ref, mtimeMs }, (event) => {
    if (event.kind === 'issue') issues.push(event.issue);
    else records += 1;
  });
  return { records, issues, pendingBytes: end.pendingBytes };
}

describe.each(sources)('a 0.20 document that ends mid-JSON: $name', ({ path: source, present }) => {
  it.skipIf(!present)('is held back while it may be being rewritten', async () => {
    const { path, bytes } = await cutDocument(source, 0);
    expect(await read(path, Date.now())).toEqual({ records: 0, issues: [], pendingBytes: bytes });
  });

  it.skipIf(!present)('is reported as truncated, with its file, once left alone past the settle window', async () => {
    const { path, bytes } = await cutDocument(source, WRITE_SETTLE_MS + 60_000);
    const message =
      `truncated: the session document ends before its JSON does (${bytes} bytes) and has not been written to ` +
      `for ${WRITE_SETTLE_MS / 1000} s or more; not read`;
    const want = { records: 0, issues: [{ code: 'invalid_json', file: path, line: 1, message }], pendingBytes: 0 };
    // The mtime it was discovered with, or (not known, as from a bare path) the file's own.
    expect(await read(path, Date.now() - WRITE_SETTLE_MS - 60_000)).toEqual(want);
    expect(await read(path, undefined)).toEqual(want);
  });

  it.skipIf(!present)('is held back when rewritten since it was discovered (its mtime now is recent)', async () => {
    const { path, bytes } = await cutDocument(source, 0);
    expect(await read(path, Date.now() - 3_600_000)).toEqual({ records: 0, issues: [], pendingBytes: bytes });
  });
});
