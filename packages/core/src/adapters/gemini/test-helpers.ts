import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParseIssue } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';
import { discoverGemini } from './discover.js';
import { type GeminiFileRef, streamGeminiRecords } from './stream-records.js';

/** The bundled Gemini fixtures (real session files; see their README). */
export const geminiFixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/gemini');
export const home061 = join(geminiFixtures, '0.61.0/.gemini');
export const home020 = join(geminiFixtures, '0.20.2/.gemini');

export interface ReadFile {
  readonly records: TranscriptRecord[];
  readonly issues: ParseIssue[];
}

export async function readGemini(file: GeminiFileRef): Promise<ReadFile> {
  const records: TranscriptRecord[] = [];
  const issues: ParseIssue[] = [];
  await streamGeminiRecords(file, (event) => {
    if (event.kind === 'record') records.push(event.record);
    else issues.push(event.issue);
  });
  return { records, issues };
}

/** Discover one session file by path (or the first file under a folder) and read it. */
export async function readGeminiPath(path: string): Promise<ReadFile> {
  const { files } = await discoverGemini(path);
  const file = files[0];
  if (file === undefined) throw new Error(`no Gemini file at ${path}`);
  return readGemini(file);
}
