import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Real histories of public repositories (core's fixtures, SOURCES.md): a folder of repositories. */
const repositories = resolve(here, '../../core/test/fixtures/aider');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-aider-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) =>
  runCli(args, {
    home: join(dir, 'home'),
    db: join(dir, 'index.sqlite'),
    env: { AGENTDASH_AIDER_PROJECTS: repositories },
  });

describe('Aider: the folders of $AGENTDASH_AIDER_PROJECTS, --agent aider', () => {
  it('reads each repository history as a session of agent aider, its project the repository', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'aider']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    const folders = readdirSync(repositories).filter((name) =>
      existsSync(join(repositories, name, '.aider.chat.history.md')),
    );
    expect(folders.length).toBe(34);
    expect(sessions.map((s) => [s.agent, s.projectPath?.split('/').pop()]).sort()).toEqual(
      folders.sort().map((name) => ['aider', name]),
    );
  });
});

describe("Aider: a history in the folder another agent's session ran in", () => {
  it('is read (never written) from the next run on, as a session of agent aider', async () => {
    const home = join(dir, 'cwd-home');
    const project = join(dir, 'some-repo');
    const history = join(repositories, 'Akash-Modi104-trading-bot', '.aider.chat.history.md');
    mkdirSync(project, { recursive: true });
    cpSync(history, join(project, '.aider.chat.history.md'));
    const before = statSync(join(project, '.aider.chat.history.md'));
    const claudeProject = join(home, '.claude/projects/-some-repo');
    mkdirSync(claudeProject, { recursive: true });
    const line = {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 'cwd-session',
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: project,
      message: { role: 'user', content: 'hello' },
    };
    writeFileSync(join(claudeProject, 'cwd-session.jsonl'), `${JSON.stringify(line)}\n`);
    const run = () => runCli(['sessions', '--json'], { home, db: join(dir, 'cwd-index.sqlite') });
    const agentsOf = async () => {
      const r = await run();
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as SessionsJson).sessions.map((s) => [s.agent, s.projectPath]).sort();
    };
    // The first run learns the Claude session's cwd; the next reads the history there.
    expect(await agentsOf()).toEqual([['claude', project]]);
    expect(await agentsOf()).toEqual([
      ['aider', project],
      ['claude', project],
    ]);
    const after = statSync(join(project, '.aider.chat.history.md'));
    expect([after.mtimeMs, after.size]).toEqual([before.mtimeMs, before.size]);
  });
});
