import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexFixtures, repoRoot } from '../../test/helpers.js';
import { discoverCodexFiles } from '../adapters/codex/discover.js';
import { discoverGemini } from '../adapters/gemini/discover.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-entries-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ID = '019d7d08-46c9-7f73-affe-4e6ca9852d56';
const geminiFixtures = join(repoRoot, 'packages/core/test/fixtures/gemini');

describe('entries named like transcripts that are none, in Codex and Gemini homes', () => {
  it('are skipped and reported with what they are; the transcripts beside them are found', async () => {
    const codex = join(dir, 'codex');
    cpSync(join(codexFixtures, 'fork'), codex, { recursive: true });
    const day = join(codex, 'sessions', '2026', '04', '11');
    expect(
      spawnSync('mkfifo', [join(day, `rollout-2026-04-11T00-00-00-${ID.replace('019d', '019e')}.jsonl`)]).status,
    ).toBe(0);
    mkdirSync(join(day, `rollout-2026-04-11T00-00-01-${ID.replace('019d', '019f')}.jsonl`));
    const found = await discoverCodexFiles([codex]);
    expect(found.files).toHaveLength(2);
    expect(found.issues.map((i) => [i.code, i.message])).toEqual([
      ['unreadable_file', 'skipped: a FIFO (named pipe), not a transcript file'],
      ['unreadable_file', 'skipped: a directory, not a transcript file'],
    ]);

    const gemini = join(dir, 'gemini');
    cpSync(join(geminiFixtures, '0.61.0/.gemini'), gemini, { recursive: true });
    const chats = join(gemini, 'tmp', 'edit', 'chats');
    symlinkSync('session-loop.json', join(chats, 'session-loop.json'));
    symlinkSync('/dev/zero', join(chats, 'session-zero.jsonl'));
    const before = (await discoverGemini(join(geminiFixtures, '0.61.0/.gemini'))).files.length;
    const read = await discoverGemini(gemini);
    expect(read.files).toHaveLength(before);
    expect(read.issues.map((i) => [i.file.slice(chats.length + 1), i.message])).toEqual([
      ['session-loop.json', 'skipped: a symbolic link that loops'],
      ['session-zero.jsonl', 'skipped: a symbolic link to a character device (/dev/zero), not a transcript file'],
    ]);
  });
});
