import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copilotAdapter } from '../src/adapters/copilot/adapter.js';
import { copilotHome102, copilotRecorded } from '../src/adapters/copilot/test-helpers.js';
import { createRecordUuid, createToolUseId } from '../src/model/ids.js';
import { type ManifestFile, readRecording, recordedSuite, sessionsByPath, usageServed } from './recorded-suite.js';

/** Copilot CLI 1.0.102 recorded against the scripted model (scripts/record/copilot), trimmed and bundled. */
recordedSuite({
  label: 'Copilot CLI 1.0.102',
  adapter: copilotAdapter,
  recorded: copilotRecorded,
  home: 'copilot-home',
  failures: {
    'edit edit': 'error string-not-found',
    'edit view': 'error file-not-found',
    'mcp rec-fail': 'mcp other',
    'shell bash': 'error exit-code 3',
  },
  kinds: {
    bash: 'bash',
    create: 'write',
    edit: 'edit',
    glob: 'glob',
    grep: 'grep',
    'rec-echo': 'mcp',
    view: 'read',
  },
  responses: 51,
});

const { files: manifest, served } = readRecording(copilotRecorded);
const pathOf = (file: ManifestFile): string => join(copilotRecorded, file.path);
const loadRecorded = () => sessionsByPath(copilotAdapter, copilotHome102);

describe('Copilot CLI 1.0.102: its own', () => {
  test('per session, usage totals equal the served responses of its scenario', async () => {
    const sessions = await loadRecorded();
    for (const file of manifest) {
      const totals = Object.values(sessions.get(pathOf(file))?.usageByModel ?? {});
      const mine = served.filter((s) => s.scenario === file.scenario && s.usage !== null);
      expect({
        scenario: file.scenario,
        responses: totals.reduce((n, t) => n + t.responses, 0),
        output: totals.reduce((n, t) => n + t.outputTokens, 0),
        cacheRead: totals.reduce((n, t) => n + t.cacheReadInputTokens, 0),
      }).toEqual({
        scenario: file.scenario,
        responses: mine.length,
        output: mine.reduce((n, s) => n + (s.usage === null ? 0 : usageServed(s.usage).outputTokens), 0),
        cacheRead: mine.reduce((n, s) => n + (s.usage === null ? 0 : usageServed(s.usage).cacheReadInputTokens), 0),
      });
    }
  });
});

describe('Copilot CLI shells: background only when asked', () => {
  test('a sync command (the default) starts no background task, though its shell has an id', async () => {
    const sessions = await loadRecorded();
    const shells = [...sessions.values()].flatMap((s) => s.calls.filter((c) => c.result?.typed?.kind === 'bash'));
    expect(shells.length).toBeGreaterThan(50);
    const tasks = shells.flatMap((c) =>
      c.result?.typed?.kind === 'bash' ? [c.result.typed.data.backgroundTaskId] : [],
    );
    // Before: each carried its `<shellId: N …>` trailer's id, shown as "background · N" and counted as a shell left running.
    expect(tasks.filter((t) => t !== undefined)).toEqual([]);
  });

  test('an async command, or one its telemetry says ran detached, names its shell as the task', () => {
    const call = (input: Record<string, unknown>) => ({
      id: createToolUseId('c1'),
      name: 'bash',
      input,
      timestamp: undefined,
      loc: { file: 'f', line: 1, offset: 0 },
      messageId: undefined,
    });
    const result = (facts: Record<string, unknown>) => ({
      toolUseId: createToolUseId('c1'),
      uuid: createRecordUuid('u1'),
      timestamp: undefined,
      loc: { file: 'f', line: 2, offset: 0 },
      isError: false,
      content: 'started\n<shellId: 7 completed with exit code 0>',
      toolUseResult: facts,
    });
    const taskOf = (input: Record<string, unknown>, facts: Record<string, unknown>) => {
      const typed = copilotAdapter.typeResult(call(input), result(facts)).typed;
      return typed?.kind === 'bash' ? typed.data.backgroundTaskId : 'not bash';
    };
    expect(taskOf({ command: 'npm run dev', mode: 'async' }, {})).toBe('7');
    expect(taskOf({ command: 'npm run dev' }, { toolTelemetry: { properties: { executionMode: 'async' } } })).toBe('7');
    expect(taskOf({ command: 'npm run dev' }, { toolTelemetry: { properties: { detached: 'true' } } })).toBe('7');
    expect(taskOf({ command: 'ls', mode: 'sync' }, {})).toBeUndefined();
  });
});
