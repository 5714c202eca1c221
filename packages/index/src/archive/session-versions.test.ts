/**
 * A session whose transcript lost records on disk shows its last complete version; the newer partial copy kept
 * beside it can be listed (bytes, records, why) and loaded (issue 36, "nothing lost").
 */
import { readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { type AgentIndex, openIndex } from '../index.js';

const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
const PROJECT = '-home-user-proj-files';

let dir: string;
let home: string;
let index: AgentIndex;
beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-session-versions-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the newer partial copy of a truncated transcript', () => {
  it('is listed with its bytes, records and reason, and loads beside the complete version', async () => {
    const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
    await index.refresh([home]);
    expect(await index.sessionVersions(SESSION)).toEqual({ sessionId: SESSION, held: [] });
    expect(await index.loadPartialSession(SESSION)).toBeUndefined();

    const bytes = readFileSync(file);
    // cut right after a line: the copy on disk is whole lines, fewer of them
    const cut = bytes.subarray(0, Math.floor(bytes.length / 3)).lastIndexOf(0x0a) + 1;
    const lines = bytes.subarray(0, cut).toString('utf8').split('\n').filter(Boolean).length;
    truncateSync(file, cut);
    await index.refresh([home]);

    const complete = await index.loadSession(SESSION);
    const { held } = await index.sessionVersions(SESSION);
    const [issue] = index.issues().filter((i) => i.code === 'version_kept');
    expect(held).toEqual([
      {
        path: file,
        role: 'main',
        complete: { bytes: bytes.length, records: complete.counts.records },
        partial: { bytes: cut, records: lines, reason: issue?.message, keptAt: expect.any(String) },
      },
    ]);
    expect(complete.counts.records).toBeGreaterThan(lines);

    const partial = await index.loadPartialSession(SESSION);
    expect(partial?.counts.records).toBe(lines);
    expect(partial?.calls.map((c) => c.id)).toEqual(complete.calls.slice(0, partial?.calls.length).map((c) => c.id));
    expect(partial?.calls.length).toBeLessThan(complete.calls.length);

    // the copy on disk deleted too: the kept copy is still there to look at
    rmSync(file);
    await index.refresh([home]);
    expect((await index.sessionVersions(SESSION)).held.map((h) => h.partial.bytes)).toEqual([cut]);
    expect((await index.loadPartialSession(SESSION))?.counts.records).toBe(lines);
  });
});
