import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexFixtures, repoRoot, samplesHome } from '../../test/helpers.js';
import { adaptersForPath } from '../agents/adapters.js';
import { discoverAll } from '../agents/discover-all.js';

const codexExec = join(codexFixtures, 'exec');
const geminiStream = join(repoRoot, 'packages/core/test/fixtures/gemini/stream-json');

/** What discovery made of each file: its name, agent and session id. */
async function discovered(paths: readonly string[]) {
  const { files, issues } = await discoverAll(paths);
  return { files: files.map((f) => [basename(f.path), f.agent, f.sessionId, f.role]), issues };
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdash-headless-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('headless output named on the command line', () => {
  it('a `codex exec --json` file is Codex’s, whatever its name, never a Claude Code session', async () => {
    const file = join(codexExec, '0.169.0-shell.exec.jsonl');
    expect((await adaptersForPath(file)).map((a) => a.id)).toEqual(['codex']);
    expect(await discovered([file])).toEqual({
      files: [['0.169.0-shell.exec.jsonl', 'codex', '01a205e7-bb04-77b3-b0ef-762f3438ba3c', 'main']],
      issues: [],
    });
  });

  it('a Gemini stream-json `.txt` file is Gemini’s (it was refused as no transcript)', async () => {
    const file = join(geminiStream, '0.61.0-shell.stdout.txt');
    expect((await adaptersForPath(file)).map((a) => a.id)).toEqual(['gemini']);
    expect((await discovered([file])).files).toEqual([
      ['0.61.0-shell.stdout.txt', 'gemini', 'c3094d53-ab8e-46b4-840d-ba43d5979d99', 'main'],
    ]);
  });

  it('a folder of them (a CI job’s artifacts) is read as each file’s agent', async () => {
    const { files, issues } = await discovered([codexExec, geminiStream]);
    expect(issues).toEqual([]);
    expect(files.map(([name, agent]) => `${agent} ${name}`)).toMatchInlineSnapshot(`
      [
        "codex 0.169.0-mcp.exec.jsonl",
        "codex 0.169.0-plan.exec.jsonl",
        "codex 0.169.0-shell.exec.jsonl",
        "codex 0.50.0-patch.exec.jsonl",
        "codex 0.98.0-api-429.exec.jsonl",
        "gemini 0.20.2-files.stdout.txt",
        "gemini 0.20.2-mcp.stdout.txt",
        "gemini 0.61.0-shell.stdout.txt",
        "gemini 0.61.0-thoughts.stdout.txt",
      ]
    `);
  });

  it('beside Claude Code sessions in one folder, an exec output is still Codex’s', async () => {
    const dir = join(scratch, 'mixed');
    await mkdir(dir);
    const claude = join(samplesHome, 'projects/-home-user-proj-api/1a27cc4c-c7a3-4773-8c08-9943d0a1ff88.jsonl');
    await copyFile(claude, join(dir, basename(claude)));
    await copyFile(join(codexExec, '0.169.0-plan.exec.jsonl'), join(dir, 'plan.exec.jsonl'));
    expect((await discovered([dir])).files.map(([name, agent]) => `${agent} ${name}`)).toEqual([
      'claude 1a27cc4c-c7a3-4773-8c08-9943d0a1ff88.jsonl',
      'codex plan.exec.jsonl',
    ]);
  });

  it('runs of one session (`exec resume`) in one folder stay apart: later files get `<id>@<file>`', async () => {
    const dir = join(scratch, 'resumed');
    await mkdir(dir);
    await copyFile(join(codexExec, '0.169.0-plan.exec.jsonl'), join(dir, 'run.0.exec.jsonl'));
    await copyFile(join(codexExec, '0.169.0-plan.exec.jsonl'), join(dir, 'run.1.exec.jsonl'));
    expect((await discovered([dir])).files.map(([name, , id]) => `${name} ${id}`)).toMatchInlineSnapshot(`
      [
        "run.0.exec.jsonl 01a205e8-1860-7872-a76e-5f45131dfda1",
        "run.1.exec.jsonl 01a205e8-1860-7872-a76e-5f45131dfda1@run.1.exec.jsonl",
      ]
    `);
  });
});
