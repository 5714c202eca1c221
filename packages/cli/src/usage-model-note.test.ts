import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Two sessions of 21 Nov 2026: Sonnet 4.5 (several responses), Haiku 4.5 (one) and a gateway's model. */
const home = join(repoRoot, 'packages/core/test/fixtures/usage');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-model-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home: dir, db: join(dir, 'index.sqlite') });

describe('usage --model TEXT that matches no model', () => {
  it('says so on stderr and names the models the same paths and dates hold, the table and JSON unchanged', async () => {
    const table = await cli(['usage', 'daily', home, '--model', 'gpt-5']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe('No usage.\n');
    const note = table.stderr.trim();
    expect(note).toMatch(/^agentdash: no model id here contains "gpt-5"; the responses here are of /);
    // the most used first, each with its responses
    expect(note).toMatch(/claude-sonnet-4-5-20250929 \(\d+ responses\), .*claude-haiku-4-5-20251001 \(1 response\)/);
    const json = await cli(['usage', 'session', home, '--model', 'gpt-5', '--json']);
    expect(JSON.parse(json.stdout).sessions).toEqual([]);
    expect(json.stderr).toContain('no model id here contains "gpt-5"');
  });

  it('says nothing when the model matches, nor when nothing at all is in the dates asked', async () => {
    const matched = await cli(['usage', 'daily', home, '--model', 'HAIKU']);
    expect(matched.stdout).toContain('2026-11-21');
    expect(matched.stderr).not.toContain('no model id');
    const none = await cli(['usage', 'daily', home, '--model', 'gpt-5', '--since', '2030-01-01']);
    expect(none.stdout).toBe('No usage.\n');
    expect(none.stderr).not.toContain('no model id');
  });
});

describe('sessions and stats --model TEXT that matches no model', () => {
  it('say so on stderr, with the models here', async () => {
    const sessions = await cli(['sessions', home, '--model', 'gpt-5']);
    expect(sessions.stdout).toBe('No sessions.\n');
    expect(sessions.stderr).toMatch(/no model id here contains "gpt-5"; the responses here are of claude-sonnet/);
    const stats = await cli(['stats', home, '--model', 'gpt-5', '--json']);
    expect(JSON.parse(stats.stdout).sessions).toBe(0);
    expect(stats.stderr).toMatch(/no model id here contains "gpt-5"; the responses here are of claude-sonnet/);
    const matched = await cli(['stats', home, '--model', 'sonnet']);
    expect(matched.stderr).not.toContain('no model id');
  });
});

describe('--version V that matches no session', () => {
  // A review: `sessions --version 2.1` printed a bare "No sessions." (the version is matched exactly).
  it('says so on stderr and names the versions the same paths hold; nothing when it matches', async () => {
    for (const command of ['sessions', 'stats']) {
      const r = await cli([command, home, '--version', '2.1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.trim().split('\n').at(-1)).toMatch(
        /^agentdash: no session here was written by version 2\.1 \(exactly\); the versions here are \d[\w.-]* \(\d+ sessions?\)/,
      );
    }
    const listed = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as {
      sessions: { versions: string[] }[];
    };
    const version = listed.sessions.flatMap((s) => s.versions)[0] ?? '';
    expect(version).not.toBe('');
    const matched = await cli(['sessions', home, '--version', version]);
    expect(matched.stderr).not.toContain('no session here');
  });
});

describe('--project TEXT that matches no session', () => {
  // A review: `stats --project nothere` printed a table of zeros, `secrets` "No secrets found in 0 sessions.", with no
  // word that the project matched nothing (a typo reads as "nothing happened there").
  it('says so on stderr in sessions, stats, secrets, usage and search, naming the projects here; nothing when it matches', async () => {
    const listed = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as {
      sessions: { projectPath: string | null; projectDir: string }[];
    };
    const projects = new Set(listed.sessions.map((s) => s.projectPath ?? s.projectDir));
    expect(projects.size).toBeGreaterThan(0);
    for (const command of [['sessions'], ['stats'], ['secrets'], ['usage', 'daily'], ['search', 'the']]) {
      const r = await cli([...command, home, '--project', 'no-such-project']);
      expect(r.code, r.stderr).toBe(0);
      const note = r.stderr.trim().split('\n').at(-1) ?? '';
      expect(note, command.join(' ')).toMatch(
        /^agentdash: no project path or folder name here contains "no-such-project"; the projects here are /,
      );
      for (const project of projects) expect(note).toContain(`${project} (`);
    }
    const [project] = [...projects];
    const matched = await cli(['stats', home, '--project', (project ?? '').slice(-4)]);
    expect(matched.stderr).not.toContain('no project path');
    // a project whose sessions recorded no usage is matched: usage has nothing to count, and says no more (a review:
    // "no project … contains" named that very project)
    const quiet = join(dir, 'quiet');
    const id = 'q1q1q1q1-0000-4000-8000-000000000001'.replace(/q/g, 'e');
    writeLines(join(quiet, 'projects', '-home-u-quiet', `${id}.jsonl`), [prompt(basesOf(id)('q-u1', null, 1), 'Hi?')]);
    const none = await cli(['usage', 'daily', quiet, '--project', 'quiet']);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, 'No usage.\n', '']);
  });
});
