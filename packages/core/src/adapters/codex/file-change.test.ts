import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { ToolCall } from '../../model/tool-call.js';

const PATCH =
  '*** Begin Patch\n*** Update File: hello.txt\n@@\n Hello, world!\n-Second line.\n+Second line, edited.\n+Third line.\n*** Delete File: old.txt\n*** End Patch\n';

/** A 0.169 rollout's one apply_patch call, its `FileChange` item and its output, as the client writes them. */
function rollout(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-file-change-')), 'sessions/2026/11/23');
  mkdirSync(dir, { recursive: true });
  const id = '01a205e7-fa42-7b50-b140-4a9421444195';
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 23, 0, 57, 1, ms)).toISOString();
  const line = (ms: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(ms), type, payload });
  const file = join(dir, `rollout-2026-11-23T00-56-58-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line(0, 'session_meta', { id, timestamp: at(0), cwd: '/home/user/proj/patch', cli_version: '0.169.0' }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Edit.' }] }),
      line(2, 'response_item', { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: PATCH }),
      line(3, 'event_msg', {
        type: 'item_completed',
        item: {
          type: 'FileChange',
          id: 'call_1',
          changes: {
            '/home/user/proj/patch/old.txt': { type: 'delete', content: 'to be deleted\nand this\n' },
            '/home/user/proj/patch/hello.txt': {
              type: 'update',
              unified_diff: '@@ -1,2 +1,3 @@\n Hello, world!\n-Second line.\n+Second line, edited.\n+Third line.\n',
              move_path: null,
            },
          },
          status: 'completed',
        },
      }),
      line(4, 'response_item', {
        type: 'custom_tool_call_output',
        call_id: 'call_1',
        output:
          'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM hello.txt\nD old.txt\n',
      }),
    ].join('\n')}\n`,
  );
  return file;
}

async function patchCalls(path: string): Promise<ToolCall[]> {
  const groups = groupSessions((await discoverAll([path])).files);
  const sessions = await Promise.all(groups.map((g) => loadSession(g)));
  return sessions.flatMap((s) => s.calls.filter((c) => c.result?.typed.kind === 'patch'));
}

const filesOf = (call: ToolCall | undefined) =>
  call?.result?.typed.kind === 'patch' ? call.result.typed.data.files : [];

// Before: 0.169 writes no `patch_apply_end`, so its patches showed as written: "@@ @@" hunks without line numbers,
// a deleted file "+0 −0" with none of its lines.
describe("Codex 0.169's patches, from what its FileChange item says it applied", () => {
  it("give each update its hunks' line numbers, and a deleted file the lines it held", async () => {
    const [call] = await patchCalls(rollout());
    const [hello, old] = filesOf(call);
    expect(hello).toMatchObject({ path: 'hello.txt', operation: 'update', linesAdded: 2, linesRemoved: 1 });
    expect(hello?.hunks).toEqual([
      {
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 3,
        lines: [' Hello, world!', '-Second line.', '+Second line, edited.', '+Third line.'],
      },
    ]);
    expect(old).toMatchObject({ path: 'old.txt', operation: 'delete', linesRemoved: 2 });
    expect(old?.hunks).toEqual([
      { oldStart: 1, oldLines: 2, newStart: 0, newLines: 0, lines: ['-to be deleted', '-and this'] },
    ]);
  });

  const corpus = resolve(repoRoot, '../shared/corpus-agents/codex/0.169.0/codex-home');
  it.skipIf(!existsSync(corpus))('do so for every patch of the 0.169 corpus (../shared)', async () => {
    const calls = await patchCalls(corpus);
    const files = calls.flatMap(filesOf);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      if (file.operation === 'update' || file.operation === 'move')
        for (const hunk of file.hunks) expect(hunk).toHaveProperty('oldStart');
      if (file.operation === 'delete') expect(file.linesRemoved).toBeGreaterThan(0);
    }
  });
});
