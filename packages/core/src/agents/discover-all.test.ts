import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFixtures, repoRoot, samplesHome } from '../../test/helpers.js';
import { geminiFixtures, home020, home061 } from '../adapters/gemini/test-helpers.js';
import { discoverAll } from './discover-all.js';

const paths = async (roots: readonly string[]) => (await discoverAll(roots)).files.map((f) => `${f.agent} ${f.path}`);

describe('discoverAll over a folder of homes', () => {
  it("reads a folder of Gemini homes as those homes, one level down or more (as Claude Code's)", async () => {
    const wild = join(geminiFixtures, 'wild');
    const homes = ['agentcmd-1', 'entire-cli-2', 'free5gc-compose-1'].map((h) => join(wild, h));
    // One level: wild/<repo>/tmp/…; before, the folder was "no transcripts" (no adapter recognises it itself).
    const oneLevel = await paths([wild]);
    expect(oneLevel).toHaveLength(3);
    expect(oneLevel).toEqual(await paths(homes));
    // Two levels: gemini/<version>/.gemini/tmp/… and gemini/wild/<repo>/tmp/…, and the folder of stream-json output
    // (a CI job's artifacts) beside them.
    const twoLevels = await paths([geminiFixtures]);
    expect(twoLevels).toEqual(await paths([home020, home061, ...homes, join(geminiFixtures, 'stream-json')]));
    expect(twoLevels.every((p) => p.startsWith('gemini '))).toBe(true);
  });

  it("finds homes three levels down, and reads no folder on the way to one as Claude Code's", async () => {
    // As ../shared/corpus-agents/gemini is laid out: <agent>/<version>/<agent>-home/.gemini, each version folder
    // beside a log of JSON lines that is no transcript (the scripted model's answers).
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-versions-'));
    try {
      for (const [version, home] of [
        ['0.20.2', home020],
        ['0.61.0', home061],
      ] as const) {
        cpSync(home, join(dir, 'gemini', version, 'gemini-home', '.gemini'), { recursive: true });
        writeFileSync(join(dir, 'gemini', version, 'truth.jsonl'), '{"served":1}\n{"served":2}\n');
        mkdirSync(join(dir, 'gemini', version, 'runs'));
      }
      const homes = ['0.20.2', '0.61.0'].map((v) => join(dir, 'gemini', v, 'gemini-home', '.gemini'));
      const expected = await paths(homes);
      expect(expected.length).toBeGreaterThan(2);
      // Before: from gemini/, the Gemini homes three levels down were not looked for, and each `truth.jsonl` was a
      // Claude session of unknown records; from a version folder, its `truth.jsonl` was one beside the home's.
      expect(await paths([join(dir, 'gemini')])).toEqual(expected);
      expect(await paths([join(dir, 'gemini', '0.61.0')])).toEqual(await paths([homes[1] as string]));
      expect((await discoverAll([dir])).issues).toEqual([]);
      expect(await paths([dir])).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a backup of several agents' homes side by side as all of them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-backup-'));
    try {
      const claude = join(dir, 'laptop', '.claude');
      const gemini = join(dir, 'laptop', '.gemini');
      const codex = join(dir, 'desktop', '.codex');
      cpSync(samplesHome, claude, { recursive: true });
      cpSync(home061, gemini, { recursive: true });
      cpSync(join(codexFixtures, 'fork'), codex, { recursive: true });
      // As a Codex home has: the prompts typed, one JSON line each, no session.
      writeFileSync(join(codex, 'history.jsonl'), '{"session_id":"s","ts":1,"text":"hi"}\n');
      const expected = (await paths([claude, gemini, codex])).sort();
      expect(new Set(expected.map((p) => p.split(' ')[0]))).toEqual(new Set(['claude', 'gemini', 'codex']));
      // Before: Claude Code's recogniser claimed the folder (a transcript three levels down), or Codex's (a rollout
      // six levels down), and the other agents' homes beside were not looked for.
      expect((await paths([dir])).sort()).toEqual(expected);
      // Alone, the Codex home's `history.jsonl` was a Claude session of unknown records.
      expect(await paths([join(dir, 'desktop')])).toEqual(await paths([codex]));
      expect((await paths([join(dir, 'laptop')])).sort()).toEqual(
        expected.filter((p) => !p.includes(`${join(dir, 'desktop')}`)),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks on below a folder that only holds headless output, for the homes under it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-ci-artifacts-'));
    try {
      // A CI job's artifacts: a run's `codex exec --json` output, and the machine's Claude and Gemini homes below.
      const artifacts = join(dir, 'artifacts');
      mkdirSync(artifacts, { recursive: true });
      cpSync(join(codexFixtures, 'exec', '0.169.0-shell.exec.jsonl'), join(artifacts, 'run.exec.jsonl'));
      const claude = join(artifacts, 'machine', '.claude');
      const gemini = join(artifacts, 'machine', '.gemini');
      cpSync(samplesHome, claude, { recursive: true });
      cpSync(home061, gemini, { recursive: true });
      const expected = (await paths([join(artifacts, 'run.exec.jsonl'), claude, gemini])).sort();
      expect(new Set(expected.map((p) => p.split(' ')[0]))).toEqual(new Set(['claude', 'gemini', 'codex']));
      // Before: the artifacts folder was a Codex "home" (it holds Codex output) and the search stopped there.
      expect((await paths([dir])).sort()).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("searches a backup for homes once: no folder of another agent's home is asked whether it is Claude's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-backup-year-'));
    try {
      const claude = join(dir, 'laptop', '.claude');
      const codex = join(dir, 'desktop', '.codex');
      cpSync(samplesHome, claude, { recursive: true });
      cpSync(join(codexFixtures, '0.98.0', 'codex-home'), codex, { recursive: true });
      // A year of Codex day folders (`sessions/YYYY/MM/DD`): 336 folders inside a home, past the 256 a search asks.
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= 28; day++) {
          const dd = (n: number) => String(n).padStart(2, '0');
          mkdirSync(join(codex, 'sessions', '2025', dd(month), dd(day)), { recursive: true });
        }
      }
      const found = await discoverAll([dir]);
      // Before: Claude Code's discovery searched the folder again, into the Codex home, and said "partly skipped:
      // only 256 of its folders were looked into" on every command, though no home was missed.
      expect(found.issues).toEqual([]);
      expect(found.files.map((f) => `${f.agent} ${f.path}`).sort()).toEqual((await paths([claude, codex])).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still reports a folder of no transcripts as one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-no-homes-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'no transcript');
      expect(await paths([dir])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which folder it looked into only in part, and reads a home named inside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-many-folders-'));
    try {
      for (let i = 0; i < 300; i++) mkdirSync(join(dir, `f${String(i).padStart(3, '0')}`));
      // A Gemini home past the first 256 folders: not looked into, and said so.
      const home = join(dir, 'f290');
      cpSync(join(geminiFixtures, 'wild', 'agentcmd-1'), home, { recursive: true });
      const cut = await discoverAll([dir]);
      expect(cut.files).toEqual([]);
      expect(cut.issues).toEqual([
        expect.objectContaining({
          code: 'unreadable_file',
          file: dir,
          line: 0,
          message: expect.stringContaining('256'),
        }),
      ]);
      const named = await discoverAll([home]);
      expect(named.files.length).toBeGreaterThan(0);
      expect(named.issues).toEqual([]);
      // Under the limit nothing is said, and the home is found.
      rmSync(join(dir, 'f000'), { recursive: true });
      for (let i = 1; i < 100; i++) rmSync(join(dir, `f${String(i).padStart(3, '0')}`), { recursive: true });
      const whole = await discoverAll([dir]);
      expect(whole.issues).toEqual([]);
      expect(whole.files.map((f) => f.path)).toEqual(named.files.map((f) => f.path));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a busy Claude project', () => {
  it('is read whole, its hundreds of session folders not counted against the search for homes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-busy-project-'));
    try {
      const project = join(dir, '-home-me-big');
      for (let i = 0; i < 300; i++) {
        const id = `${String(i).padStart(8, '0')}-1111-4111-8111-111111111111`;
        const line = {
          type: 'user',
          sessionId: id,
          uuid: `u${i}`,
          timestamp: '2026-01-01T00:00:00Z',
          message: { role: 'user', content: 'hi' },
        };
        mkdirSync(join(project, id, 'subagents'), { recursive: true });
        writeFileSync(join(project, `${id}.jsonl`), `${JSON.stringify(line)}\n`);
        writeFileSync(
          join(project, id, 'subagents', 'agent-a1.jsonl'),
          `${JSON.stringify({ ...line, isSidechain: true, agentId: 'a1' })}\n`,
        );
      }
      for (const path of [project, dir]) {
        const found = await discoverAll([path]);
        // Before: "partly skipped: only 256 of its folders were looked into…", though every session was read.
        expect(found.issues).toEqual([]);
        expect(found.files.filter((f) => f.role === 'main')).toHaveLength(300);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a Qwen Code session named by its file or folder', () => {
  const home = join(repoRoot, 'packages/core/test/fixtures/qwen/0.24.4/qwen-home');
  const project = join(home, 'projects/-home-user-proj-files');
  // Before: its first line has Claude Code's keys (uuid, parentUuid, sessionId), so Claude Code's discovery took it
  // (0 calls, 8 unknown records); its project folder and projects folder were read as Gemini's.
  it('is read as Qwen Code’s, as its home is', async () => {
    const fromHome = (await paths([home])).filter((p) => p.includes('-home-user-proj-files/'));
    expect(fromHome.length).toBeGreaterThan(0);
    expect(fromHome.every((p) => p.startsWith('qwen '))).toBe(true);
    const file = join(project, 'chats/7dfb68bd-7c77-4038-b4fc-ee32863a9d07.jsonl');
    expect(await paths([file])).toEqual([`qwen ${file}`]);
    expect(await paths([join(project, 'chats')])).toEqual(fromHome);
    expect(await paths([project])).toEqual(fromHome);
    expect((await paths([join(home, 'projects')])).every((p) => p.startsWith('qwen '))).toBe(true);
  });
});

describe('a Gemini CLI session’s subagents’ folder named by itself', () => {
  // Before: no adapter recognised it, and Claude Code's discovery read it (a claude session with 0 calls).
  it('is read as Gemini CLI’s, with its session', async () => {
    const chats = join(home061, 'tmp/subagent/chats');
    const found = await paths([join(chats, 'd79a1ee2-eb13-4740-9475-85886294834c')]);
    expect(found).toEqual(await paths([chats]));
    expect(found.length).toBeGreaterThan(1);
    expect(found.every((p) => p.startsWith('gemini '))).toBe(true);
  });
});
