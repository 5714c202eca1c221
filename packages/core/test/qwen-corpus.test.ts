import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { qwenAdapter } from '../src/adapters/qwen/adapter.js';
import { qwenHome0244, qwenRecorded } from '../src/adapters/qwen/test-helpers.js';
import { type ManifestFile, readRecording, recordedSuite, sessionsByPath } from './recorded-suite.js';

/** Qwen Code 0.24.4 recorded against the scripted model (scripts/record/qwen), bundled whole. */
recordedSuite({
  label: 'Qwen Code 0.24.4',
  adapter: qwenAdapter,
  recorded: qwenRecorded,
  home: 'qwen-home',
  failures: {
    'files edit': 'error string-not-found',
    'files read_file': 'error file-not-found',
    'mcp mcp__rec__fail': 'mcp other',
    'shell run_shell_command': 'error exit-code 3',
  },
  kinds: {
    edit: 'edit',
    glob: 'glob',
    grep_search: 'grep',
    mcp__rec__echo: 'mcp',
    read_file: 'read',
    run_shell_command: 'bash',
    write_file: 'write',
  },
  responses: 33,
});

const { files: manifest } = readRecording(qwenRecorded);
const pathOf = (file: ManifestFile): string => join(qwenRecorded, file.path);
const loadRecorded = () => sessionsByPath(qwenAdapter, qwenHome0244);

describe('Qwen Code 0.24.4: its own', () => {
  test("each call carries the tool's own duration_ms from its telemetry line, and the timestamp delta", async () => {
    const sessions = await loadRecorded();
    const reported = new Map<string, number>();
    for (const file of manifest) {
      for (const line of readFileSync(pathOf(file), 'utf8').trim().split('\n')) {
        const event = (JSON.parse(line) as { systemPayload?: { uiEvent?: Record<string, unknown> } }).systemPayload
          ?.uiEvent;
        if (event?.['event.name'] === 'qwen-code.tool_call')
          reported.set(String(event.call_id), Number(event.duration_ms));
      }
    }
    const calls = [...new Set(sessions.values())].flatMap((s) => [...s.calls]);
    expect(reported.size).toBe(51);
    for (const call of calls) {
      const sources = Object.fromEntries(call.durations.map((d) => [d.source, d.ms]));
      expect({ id: call.id, durationMs: sources.durationMs, hasDelta: sources.timestamps !== undefined }).toEqual({
        id: call.id,
        durationMs: reported.get(call.id as string),
        hasDelta: true,
      });
    }
  });

  test('the resumed session is one file: both prompts, both turns', async () => {
    const sessions = await loadRecorded();
    const resume = manifest.find((f) => f.scenario === 'resume');
    const session = sessions.get(resume === undefined ? '' : pathOf(resume));
    expect(session?.calls.map((c) => c.name)).toEqual(['run_shell_command', 'read_file']);
    expect(qwenAdapter.resume).toEqual(['qwen', '--resume']);
  });
});
