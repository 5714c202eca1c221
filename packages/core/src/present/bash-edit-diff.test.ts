/**
 * A command that changed files as Claude Code 2.1 saw it (`bashEditDiff`: a formatter's edits, 2.1.330's corpus
 * `node scripts/format.mjs`): the files are in its typed result and on the session's files, with their lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from '../session/load-session.js';
import { fileActivityOf } from './file-activity.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-bash-edit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hunk = (added: string[], removed: string[] = []) => ({
  oldStart: 1,
  oldLines: 1 + removed.length,
  newStart: 1,
  newLines: 1 + added.length,
  lines: [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ' kept'],
});

describe("a shell command's edits as the client saw them", () => {
  it('are typed on its result and counted as edits of their files, with their lines', async () => {
    const session = '5b1e0d2c-0000-4000-8000-0000000b0d1f';
    const at = basesOf(session);
    writeLines(join(dir, 'projects', 'p', `${session}.jsonl`), [
      prompt(at('u1', null, 1), 'format the code'),
      toolUse(at('a1', 'u1', 2), 'msg_1', 'toolu_fmt', 'Bash', { command: 'node scripts/format.mjs' }),
      toolResult(at('r1', 'a1', 3), 'toolu_fmt', 'formatted 2 files', false, {
        stdout: 'formatted 2 files',
        stderr: '',
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
        bashEditDiff: {
          files: [
            { filePath: '/home/user/proj/demo/src/a.js', hunks: [hunk(['// formatted', 'x'])] },
            { filePath: '/home/user/proj/demo/src/b.js', hunks: [hunk(['y'], ['z'])] },
          ],
        },
      }),
    ]);
    const [group] = groupSessions((await discoverAll([dir])).files);
    const loaded = await loadSession(group!);
    const call = loaded.calls[0]!;
    expect(call.result?.typed.kind).toBe('bash');
    const data = call.result?.typed.kind === 'bash' ? call.result.typed.data : undefined;
    expect(data?.editedFiles?.map((f) => [f.filePath, f.linesAdded, f.linesRemoved])).toEqual([
      ['/home/user/proj/demo/src/a.js', 2, 0],
      ['/home/user/proj/demo/src/b.js', 1, 1],
    ]);
    const files = fileActivityOf(loaded.calls, '/home/user/proj/demo');
    expect(files.map((f) => [f.path, f.edits, f.linesAdded, f.linesRemoved, f.callIds])).toEqual([
      ['/home/user/proj/demo/src/a.js', 1, 2, 0, ['toolu_fmt']],
      ['/home/user/proj/demo/src/b.js', 1, 1, 1, ['toolu_fmt']],
    ]);
  });
});
