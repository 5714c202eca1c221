import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { SessionsJson } from './output/json-types.js';

const sb = cliSandbox('agentdash-show-issues-');
const { cli, json } = sb;

const PROJECT = '-home-user-proj-shell';
const SESSION = 'f0835e0b-b4c6-4910-817c-346fd7332302';
const corpusHome = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus/1.0.128/claude-home');

/** What this Node's JSON.parse says of a line (the issue's message quotes it). */
function parseError(line: string): string {
  try {
    JSON.parse(line);
    return 'parsed';
  } catch (error) {
    return (error as Error).message;
  }
}

/** A copy of the 1.0.128 shell session (from `from`) whose line 41 is cut in the middle, in a home of its own. */
function truncatedCopy(from: string, name: string): { home: string; file: string; cut: string } {
  const lines = readFileSync(join(from, 'projects', PROJECT, `${SESSION}.jsonl`), 'utf8').split('\n');
  const cut = (lines[40] ?? '').slice(0, 400);
  lines[40] = cut;
  const home = join(sb.dir, name);
  const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n'));
  return { home, file, cut: parseError(cut) };
}

async function issuesShown(from: string, name: string) {
  const { home, file, cut } = truncatedCopy(from, name);
  const list = json<SessionsJson>(await cli(['sessions', home, '--json']));
  const shown = await cli(['show', SESSION, home]);
  const lines = shown.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('issues'));
  // at 80 columns each problem keeps its line number (a whole path was cut before it)
  const narrow = (await cli(['show', SESSION, home], { env: { COLUMNS: '80' } })).stdout;
  return {
    expected: { ...expectedShow(file, cut), narrow: [true, true] },
    found: {
      issues: list.sessions.map((s) => s.issues),
      code: shown.code,
      lines: lines.slice(at, at + 3),
      narrow: [`${SESSION}.jsonl:41: invalid_json`, `${SESSION}.jsonl:42: orphan_result`].map((t) =>
        narrow.includes(t),
      ),
    },
  };
}

const expectedShow = (file: string, cut: string) => ({
  issues: [2],
  code: 0,
  lines: [
    `issues   2 problems reading the transcript (in ${dirname(file)}):`,
    `         ${SESSION}.jsonl:41: invalid_json: invalid JSON: ${cut}`,
    `         ${SESSION}.jsonl:42: orphan_result: result for tool_use toolu_012BEMDM2TEzBunI76L9Veq1 has no call in this session`,
  ],
});

describe('show states the problems met reading the transcript', () => {
  it('bundled 1.0.128 shell session with line 41 cut: each issue with file, line and message, as many as listed', async () => {
    const { found, expected } = await issuesShown(SAMPLES_HOME, 'bundled');
    expect(found).toEqual(expected);
  });

  it.skipIf(!existsSync(corpusHome))('the same cut in the corpus copy of 1.0.128', async () => {
    const { found, expected } = await issuesShown(corpusHome, 'corpus');
    expect(found).toEqual(expected);
  });

  it('a session without issues has no issues line', async () => {
    const shown = await cli(['show', SESSION, join(SAMPLES_HOME, 'projects', PROJECT)]);
    expect(shown.stdout.split('\n').filter((l) => l.startsWith('issues'))).toEqual([]);
  });
});
