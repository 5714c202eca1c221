import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFixtures } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { discoverCodexFiles, recognizesCodexPath } from './discover.js';

const fork = join(codexFixtures, 'fork');

describe('discoverCodexFiles', () => {
  it('takes a known session id instead of reading the first line, and reads it otherwise', async () => {
    const read = await discoverCodexFiles([fork]);
    const roles = read.files.map((f) => [f.role, f.sessionId, f.agentId]);
    expect(roles.filter(([role]) => role === 'subagent')).toHaveLength(1);

    // What an index knows from an earlier read gives the same files.
    const known = new Map(read.files.map((f) => [f.path, f.sessionId]));
    const asked: string[] = [];
    const again = await discoverCodexFiles([fork], {
      knownSessionId: (path) => {
        asked.push(path);
        return known.get(path);
      },
    });
    expect(again.files.map((f) => [f.role, f.sessionId, f.agentId])).toEqual(roles);
    expect(asked).toHaveLength(read.files.length);

    // The known id is taken as it is: a rollout under another session's id is that session's subagent file.
    const [first] = read.files;
    const moved = await discoverCodexFiles([fork], {
      knownSessionId: (path) => (path === first?.path ? 'another-session' : known.get(path)),
    });
    expect(moved.files.find((f) => f.path === first?.path)).toMatchObject({
      role: 'subagent',
      sessionId: 'another-session',
    });
  });
});

describe('recognizesCodexPath', () => {
  it("finds a home's rollouts, but never walks Claude Code's project and session folders", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-walk-'));
    try {
      // A Codex home is recognized, and a folder inside it; a folder holding one further down is no one's (core's
      // discoverAll searches it for every agent's homes, Codex's among them).
      cpSync(fork, join(dir, 'work', 'codex-copy'), { recursive: true });
      expect(await recognizesCodexPath(join(dir, 'work', 'codex-copy'))).toBe(true);
      expect(await recognizesCodexPath(join(dir, 'work', 'codex-copy', 'sessions', '2026'))).toBe(true);
      expect(await recognizesCodexPath(join(dir, 'work'))).toBe(false);
      // A Claude home: a rollout-named file inside a project folder (`-…`) or a session folder (a uuid) is not
      // looked for: those folders are Claude's, and a Claude home holds thousands of them.
      const claude = join(dir, 'claude-home', 'projects');
      const day = join(codexFixtures, 'legacy', 'sessions', '2025', '08', '21');
      mkdirSync(claude, { recursive: true });
      cpSync(day, join(claude, '-home-user-proj'), { recursive: true });
      cpSync(day, join(claude, '-home-user-other', '11111111-2222-4333-8444-555555555555'), { recursive: true });
      cpSync(day, join(claude, '11111111-2222-4333-8444-666666666666'), { recursive: true });
      expect(await recognizesCodexPath(join(dir, 'claude-home'))).toBe(false);
      // The same files under a folder of another name are found.
      cpSync(day, join(claude, 'home-user-proj'), { recursive: true });
      expect(await recognizesCodexPath(join(dir, 'claude-home'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a Codex home whose rollouts are all gone', () => {
  // Before: no adapter recognised it, and Claude Code's discovery read its history.jsonl as a session ("history",
  // nine unknown records) beside the archived Codex sessions (a review of the index across upgrades).
  it('is still Codex’s, by its history.jsonl: no file of it is read as a Claude session', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'codex-emptied-')), '.codex');
    mkdirSync(join(home, 'sessions', '2025', '10', '05'), { recursive: true });
    writeFileSync(
      join(home, 'history.jsonl'),
      '{"session_id":"0199b26c-737a-71a2-9939-52ce68c95cbe","ts":1759635162,"text":"fix the tests"}\n',
    );
    expect(await recognizesCodexPath(home)).toBe(true);
    const { files } = await discoverAll([home]);
    expect(files).toEqual([]);
    // Claude Code's history.jsonl is no Codex history: its home stays Claude's
    const claude = mkdtempSync(join(tmpdir(), 'claude-history-'));
    writeFileSync(join(claude, 'history.jsonl'), '{"display":"fix the tests","pastedContents":{},"timestamp":1}\n');
    expect(await recognizesCodexPath(claude)).toBe(false);
  });
});
