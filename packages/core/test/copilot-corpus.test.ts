import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copilotAdapter } from '../src/adapters/copilot/adapter.js';
import { copilotHome102, copilotRecorded } from '../src/adapters/copilot/test-helpers.js';
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
