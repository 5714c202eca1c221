import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copilotAdapter } from '../src/adapters/copilot/adapter.js';
import { copilotHome102, copilotRecorded } from '../src/adapters/copilot/test-helpers.js';
import { groupSessions, loadSession } from '../src/index.js';
import type { RecordEvent } from '../src/model/raw.js';
import type { Usage } from '../src/model/record.js';
import type { Session } from '../src/model/session.js';

/** Copilot CLI 1.0.102 recorded against the scripted model (scripts/record/copilot), trimmed and bundled. */
interface ManifestFile {
  readonly path: string;
  readonly scenario: string;
  readonly toolCallsByName: Readonly<Record<string, number>>;
  readonly failedByClient: readonly { readonly callId: string; readonly name: string }[];
  readonly expectedFailures: readonly string[];
}
interface Served {
  readonly scenario: string;
  readonly id: string;
  readonly status: number;
  readonly usage: null | {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly prompt_tokens_details: { readonly cached_tokens: number };
  };
}

const manifest = (JSON.parse(readFileSync(join(copilotRecorded, 'manifest.json'), 'utf8')) as { files: ManifestFile[] })
  .files;
const served = readFileSync(join(copilotRecorded, 'truth.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Served);

async function sessionsByPath(): Promise<Map<string, Session>> {
  const { files } = await copilotAdapter.discover(copilotHome102);
  const sessions = new Map<string, Session>();
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    for (const file of session.files) sessions.set(file.path, session);
  }
  return sessions;
}

const pathOf = (file: ManifestFile): string =>
  join(copilotRecorded, file.path.replace(/^copilot-home\//, 'copilot-home/'));

describe('Copilot CLI 1.0.102 (recorded against a scripted model)', () => {
  test('every events file is found, as a Copilot session of its own, with its cwd', async () => {
    const sessions = await sessionsByPath();
    expect([...sessions.keys()].sort()).toEqual(manifest.map(pathOf).sort());
    for (const file of manifest) {
      const session = sessions.get(pathOf(file));
      expect({ agent: session?.agent, cwd: session?.projectPath }).toEqual({
        agent: 'copilot',
        cwd: `/home/user/proj/${file.scenario}`,
      });
    }
  });

  test('calls per tool equal the manifest, every call paired', async () => {
    const sessions = await sessionsByPath();
    for (const file of manifest) {
      const calls = sessions.get(pathOf(file))?.calls ?? [];
      const counts: Record<string, number> = {};
      for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
      expect({ scenario: file.scenario, counts }).toEqual({ scenario: file.scenario, counts: file.toolCallsByName });
      expect(calls.filter((c) => c.result === undefined).map((c) => c.id)).toEqual([]);
    }
  });

  test('failures equal the manifest: the client-flagged ones and the scripted non-zero exits', async () => {
    const sessions = await sessionsByPath();
    const categories: Record<string, string | undefined> = {};
    for (const file of manifest) {
      const calls = sessions.get(pathOf(file))?.calls ?? [];
      const failed = calls
        .filter((c) => c.status === 'error')
        .map((c) => c.id as string)
        .sort();
      const want = [...new Set([...file.failedByClient.map((f) => f.callId), ...file.expectedFailures])].sort();
      expect({ scenario: file.scenario, failed }).toEqual({ scenario: file.scenario, failed: want });
      for (const call of calls.filter((c) => c.status === 'error')) {
        categories[`${file.scenario} ${call.name}`] =
          `${call.result?.typed.kind} ${call.result?.error?.category}${call.result?.error?.exitCode === undefined ? '' : ` ${call.result.error.exitCode}`}`;
      }
    }
    expect(categories).toEqual({
      'edit edit': 'error string-not-found',
      'edit view': 'error file-not-found',
      'mcp rec-fail': 'mcp other',
      'shell bash': 'error exit-code 3',
    });
  });

  test('calls are typed by their kind; grep exit 1 is an answer, not a failure', async () => {
    const sessions = await sessionsByPath();
    const kinds: Record<string, string> = {};
    for (const session of new Set(sessions.values())) {
      for (const call of session.calls.filter((c) => c.status === 'ok'))
        kinds[call.name] = call.result?.typed.kind ?? '';
    }
    expect(kinds).toEqual({
      bash: 'bash',
      create: 'write',
      edit: 'edit',
      glob: 'glob',
      grep: 'grep',
      'rec-echo': 'mcp',
      view: 'read',
    });
    const shell = manifest.find((f) => f.scenario === 'shell');
    const grep = [...(sessions.get(shell === undefined ? '' : pathOf(shell))?.calls ?? [])].find(
      (c) => (c.input as { command?: string }).command === 'grep zzz data.txt',
    );
    expect({ status: grep?.status, typed: grep?.result?.typed }).toEqual({
      status: 'ok',
      typed: {
        kind: 'bash',
        tool: 'bash',
        data: {
          stdout: '',
          stderr: '',
          exitCode: 1,
          interrupted: false,
          backgroundTaskId: '2',
          returnCodeInterpretation: 'No matches found',
        },
      },
    });
  });

  test('tokens equal what was served, response by response (HTTP errors leave no trace)', async () => {
    const usageById = new Map<string, Usage>();
    const { files } = await copilotAdapter.discover(copilotHome102);
    for (const file of files) {
      await copilotAdapter.streamRecords(
        file,
        (event: RecordEvent) => {
          if (event.kind === 'record' && event.record.kind === 'assistant' && event.record.usage !== undefined) {
            usageById.set(event.record.messageId ?? '', event.record.usage);
          }
        },
        {},
      );
    }
    const want = new Map<string, Usage>();
    for (const s of served) {
      if (s.usage === null) continue;
      const cached = s.usage.prompt_tokens_details.cached_tokens;
      want.set(s.id, {
        inputTokens: s.usage.prompt_tokens - cached,
        outputTokens: s.usage.completion_tokens,
        cacheCreationInputTokens: 0,
        cacheCreation1hInputTokens: 0,
        cacheReadInputTokens: cached,
      });
    }
    expect(want.size).toBe(51);
    expect(Object.fromEntries(usageById)).toEqual(Object.fromEntries(want));
  });

  test('per session, usage totals equal the served responses of its scenario', async () => {
    const sessions = await sessionsByPath();
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
        output: mine.reduce((n, s) => n + (s.usage?.completion_tokens ?? 0), 0),
        cacheRead: mine.reduce((n, s) => n + (s.usage?.prompt_tokens_details.cached_tokens ?? 0), 0),
      });
    }
  });
});
