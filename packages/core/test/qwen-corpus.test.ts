import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { qwenAdapter } from '../src/adapters/qwen/adapter.js';
import { qwenHome0244, qwenRecorded } from '../src/adapters/qwen/test-helpers.js';
import { groupSessions, loadSession } from '../src/index.js';
import type { RecordEvent } from '../src/model/raw.js';
import type { Usage } from '../src/model/record.js';
import type { Session } from '../src/model/session.js';

/** Qwen Code 0.24.4 recorded against the scripted model (scripts/record/qwen), bundled whole. */
interface ManifestFile {
  readonly path: string;
  readonly scenario: string;
  readonly sessionId: string;
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

const manifest = (JSON.parse(readFileSync(join(qwenRecorded, 'manifest.json'), 'utf8')) as { files: ManifestFile[] })
  .files;
const served = readFileSync(join(qwenRecorded, 'truth.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Served);

async function sessionsByPath(): Promise<Map<string, Session>> {
  const { files } = await qwenAdapter.discover(qwenHome0244);
  const sessions = new Map<string, Session>();
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    for (const file of session.files) sessions.set(file.path, session);
  }
  return sessions;
}

const pathOf = (file: ManifestFile): string => join(qwenRecorded, file.path);

describe('Qwen Code 0.24.4 (recorded against a scripted model)', () => {
  test('every session file is found, as a Qwen session of its own, with its id and cwd', async () => {
    const sessions = await sessionsByPath();
    expect([...sessions.keys()].sort()).toEqual(manifest.map(pathOf).sort());
    for (const file of manifest) {
      const session = sessions.get(pathOf(file));
      expect({ agent: session?.agent, id: session?.id, cwd: session?.projectPath }).toEqual({
        agent: 'qwen',
        id: file.sessionId,
        cwd: `/home/user/proj/${file.scenario}`,
      });
    }
  });

  test('calls per tool equal the manifest, every call paired', async () => {
    const sessions = await sessionsByPath();
    let total = 0;
    for (const file of manifest) {
      const calls = sessions.get(pathOf(file))?.calls ?? [];
      const counts: Record<string, number> = {};
      for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
      expect({ scenario: file.scenario, counts }).toEqual({ scenario: file.scenario, counts: file.toolCallsByName });
      expect(calls.filter((c) => c.result === undefined).map((c) => c.id)).toEqual([]);
      total += calls.length;
    }
    expect(total).toBe(51);
  });

  test('failures equal the manifest, each classified', async () => {
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
        const error = call.result?.error;
        categories[`${file.scenario} ${call.name} ${call.id}`] =
          `${call.result?.typed.kind} ${error?.category}${error?.exitCode === undefined ? '' : ` ${error.exitCode}`}`;
      }
    }
    expect(categories).toEqual({
      'files edit call_files_6_0': 'error string-not-found',
      'files read_file call_files_7_0': 'error file-not-found',
      'mcp mcp__rec__fail call_mcp_17_0': 'mcp other',
      'shell run_shell_command call_shell_10_0': 'error exit-code 2',
      'shell run_shell_command call_shell_12_0': 'error exit-code 3',
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
      edit: 'edit',
      glob: 'glob',
      grep_search: 'grep',
      mcp__rec__echo: 'mcp',
      read_file: 'read',
      run_shell_command: 'bash',
      write_file: 'write',
    });
    const shell = manifest.find((f) => f.scenario === 'shell');
    const grep = [...(sessions.get(shell === undefined ? '' : pathOf(shell))?.calls ?? [])].find(
      (c) => (c.input as { command?: string }).command === 'grep zzz data.txt',
    );
    expect({ status: grep?.status, typed: grep?.result?.typed }).toMatchObject({
      status: 'ok',
      typed: { kind: 'bash', data: { exitCode: 1, returnCodeInterpretation: 'No matches found' } },
    });
  });

  test('tokens equal what was served, response by response, keyed by the response id', async () => {
    const usageById = new Map<string, Usage>();
    const { files } = await qwenAdapter.discover(qwenHome0244);
    for (const file of files) {
      await qwenAdapter.streamRecords(
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
        reasoningOutputTokens: 0,
      });
    }
    expect(want.size).toBe(33);
    expect(Object.fromEntries(usageById)).toEqual(Object.fromEntries(want));
  });

  test("each call carries the tool's own duration_ms from its telemetry line, and the timestamp delta", async () => {
    const sessions = await sessionsByPath();
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
    const sessions = await sessionsByPath();
    const resume = manifest.find((f) => f.scenario === 'resume');
    const session = sessions.get(resume === undefined ? '' : pathOf(resume));
    expect(session?.calls.map((c) => c.name)).toEqual(['run_shell_command', 'read_file']);
    expect(qwenAdapter.resume).toEqual(['qwen', '--resume']);
  });
});
