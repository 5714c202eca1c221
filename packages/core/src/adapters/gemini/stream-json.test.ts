import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';
import { loadSession } from '../../session/load-session.js';
import { geminiFixtures } from './test-helpers.js';

/** `--output-format stream-json` output of the corpus's runs, bundled (`test/fixtures/gemini/stream-json/`). */
async function streamSession(name: string): Promise<Session> {
  const { files } = await discoverAll([join(geminiFixtures, 'stream-json', name)]);
  const [group] = groupSessions(files);
  if (group === undefined) throw new Error(`no session in ${name}`);
  return loadSession(group);
}

/** Each call as `name kind outcome`, with its start and end times. */
const callsOf = (session: Session) =>
  session.calls.map((c) =>
    [
      c.name,
      c.result?.typed.kind ?? 'no result',
      c.result?.error?.category ?? (c.result?.isError === true ? 'error' : 'ok'),
      c.timestamp,
      c.result?.timestamp,
    ].join(' '),
  );

describe('Gemini stream-json read as a Gemini session', () => {
  it('keeps the run’s times and requested model, joins answer chunks, pairs calls with results by tool id', async () => {
    const session = await streamSession('0.61.0-shell.stdout.txt');
    expect(session.issues).toEqual([]);
    expect([session.startedAt, session.endedAt, session.title]).toMatchInlineSnapshot(`
      [
        "2026-11-23T00:27:37.589Z",
        "2026-11-23T00:27:41.270Z",
        "[[rec:shell]] Run a few shell commands: list files, try a missing directory, count lines of data.txt.",
      ]
    `);
    expect(callsOf(session)).toMatchInlineSnapshot(`
      [
        "run_shell_command bash ok 2026-11-23T00:27:38.497Z 2026-11-23T00:27:38.679Z",
        "run_shell_command bash ok 2026-11-23T00:27:39.420Z 2026-11-23T00:27:39.507Z",
        "run_shell_command bash ok 2026-11-23T00:27:39.768Z 2026-11-23T00:27:39.888Z",
        "run_shell_command bash ok 2026-11-23T00:27:40.035Z 2026-11-23T00:27:40.102Z",
        "run_shell_command bash ok 2026-11-23T00:27:40.321Z 2026-11-23T00:27:40.550Z",
      ]
    `);
  });

  it('types failed calls with the session files’ rules', async () => {
    expect(callsOf(await streamSession('0.20.2-files.stdout.txt'))).toMatchInlineSnapshot(`
      [
        "list_directory ls ok 2026-11-23T00:27:35.291Z 2026-11-23T00:27:35.381Z",
        "read_file read ok 2026-11-23T00:27:35.706Z 2026-11-23T00:27:35.718Z",
        "glob glob ok 2026-11-23T00:27:36.174Z 2026-11-23T00:27:36.202Z",
        "search_file_content grep ok 2026-11-23T00:27:36.362Z 2026-11-23T00:27:36.400Z",
        "read_file error file-not-found 2026-11-23T00:27:36.585Z 2026-11-23T00:27:36.588Z",
        "read_file read ok 2026-11-23T00:27:37.252Z 2026-11-23T00:27:37.256Z",
      ]
    `);
    expect(callsOf(await streamSession('0.20.2-mcp.stdout.txt'))).toMatchInlineSnapshot(`
      [
        "echo unknown ok 2026-11-23T00:28:52.599Z 2026-11-23T00:28:52.713Z",
        "image unknown ok 2026-11-23T00:28:52.932Z 2026-11-23T00:28:52.945Z",
        "fail unknown ok 2026-11-23T00:28:53.496Z 2026-11-23T00:28:53.507Z",
        "throws unknown ok 2026-11-23T00:28:54.062Z 2026-11-23T00:28:54.074Z",
      ]
    `);
  });

  it('reads usage from result.stats: per model with cached and thoughts (0.61), the run’s totals (0.20)', async () => {
    // truth.jsonl of 0.61 shell: flash-lite 1,390 in / 37 out; flash 81,380 in (49,911 cached) / 284 out + 3,384 thoughts.
    expect((await streamSession('0.61.0-shell.stdout.txt')).usageByModel).toMatchInlineSnapshot(`
      {
        "gemini-3.5-flash-lite": {
          "cacheCreationInputTokens": 0,
          "cacheReadInputTokens": 0,
          "inputTokens": 1390,
          "outputTokens": 37,
          "reasoningOutputTokens": 0,
          "responses": 1,
        },
        "gemini-3.8-flash": {
          "cacheCreationInputTokens": 0,
          "cacheReadInputTokens": 49911,
          "inputTokens": 31469,
          "outputTokens": 3668,
          "reasoningOutputTokens": 3384,
          "responses": 1,
        },
      }
    `);
    expect((await streamSession('0.20.2-mcp.stdout.txt')).usageByModel).toMatchInlineSnapshot(`
      {
        "auto": {
          "cacheCreationInputTokens": 0,
          "cacheReadInputTokens": 0,
          "inputTokens": 68343,
          "outputTokens": 2045,
          "reasoningOutputTokens": 1858,
          "responses": 1,
        },
      }
    `);
  });
});
