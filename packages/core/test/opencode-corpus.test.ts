import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openCodeAdapter } from '../src/adapters/opencode/adapter.js';
import { setSnapshotRoot } from '../src/adapters/opencode/snapshot.js';
import { openCodeHome11833, openCodeRecorded, openCodeStorageHome } from '../src/adapters/opencode/test-helpers.js';
import { groupSessions, loadSession } from '../src/index.js';
import type { RecordEvent } from '../src/model/raw.js';
import type { Usage } from '../src/model/record.js';
import type { Session } from '../src/model/session.js';

/** OpenCode 1.18.33 recorded against the scripted model (scripts/record/opencode): its opencode.db, bundled. */
interface ManifestFile {
  readonly scenario: string;
  readonly sessionId: string;
  readonly parentSessionId?: string;
  readonly toolCallsByName: Readonly<Record<string, number>>;
  readonly failedByClient: readonly { readonly callId: string; readonly name: string }[];
  readonly shellExitCodes: Readonly<Record<string, number>>;
  readonly expectedFailures: readonly string[];
}
interface Served {
  readonly scenario: string;
  readonly status: number;
  readonly usage: null | {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly prompt_tokens_details: { readonly cached_tokens: number };
  };
}

const manifest = (
  JSON.parse(readFileSync(join(openCodeRecorded, 'manifest.json'), 'utf8')) as { files: ManifestFile[] }
).files;
const served = readFileSync(join(openCodeRecorded, 'truth.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Served);
const tops = manifest.filter((f) => f.parentSessionId === undefined);

let snapshots: string;
beforeAll(() => {
  snapshots = mkdtempSync(join(tmpdir(), 'agentdash-opencode-snapshots-'));
  setSnapshotRoot(snapshots);
});
afterAll(() => rmSync(snapshots, { recursive: true, force: true }));

async function sessionsById(home: string): Promise<Map<string, Session>> {
  const { files, issues } = await openCodeAdapter.discover(home);
  expect(issues).toEqual([]);
  const sessions = new Map<string, Session>();
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    sessions.set(session.id, session);
  }
  return sessions;
}

describe.each([
  ['opencode.db', openCodeHome11833],
  ['storage/ JSON tree', openCodeStorageHome],
])('OpenCode 1.18.33 (recorded against a scripted model), read from its %s', (_, home) => {
  test('every top session is found with its id and cwd; the subagent as its child', async () => {
    const sessions = await sessionsById(home);
    expect([...sessions.keys()].sort()).toEqual(tops.map((f) => f.sessionId).sort());
    for (const file of tops) {
      const session = sessions.get(file.sessionId);
      expect({ agent: session?.agent, cwd: session?.projectPath }).toEqual({
        agent: 'opencode',
        cwd: `/home/user/proj/${file.scenario}`,
      });
    }
    const child = manifest.find((f) => f.parentSessionId !== undefined);
    const parent = sessions.get(child?.parentSessionId ?? '');
    expect(parent?.subagents.map((s) => s.agentId)).toEqual([child?.sessionId]);
    const task = parent?.calls.find((c) => c.name === 'task');
    expect(task?.result?.typed).toMatchObject({ kind: 'agent', data: { agentId: child?.sessionId } });
  });

  test('calls per tool equal the manifest (subagents included), every call paired', async () => {
    const sessions = await sessionsById(home);
    let total = 0;
    for (const top of tops) {
      const calls = sessions.get(top.sessionId)?.calls ?? [];
      const counts: Record<string, number> = {};
      for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
      const want: Record<string, number> = {};
      for (const file of manifest.filter((f) => f.scenario === top.scenario)) {
        for (const [name, n] of Object.entries(file.toolCallsByName)) want[name] = (want[name] ?? 0) + n;
      }
      expect({ scenario: top.scenario, counts }).toEqual({ scenario: top.scenario, counts: want });
      expect(calls.filter((c) => c.result === undefined).map((c) => c.id)).toEqual([]);
      total += calls.length;
    }
    expect(total).toBe(122);
  });

  test('failures equal the manifest, each classified; exit codes from state.metadata.exit', async () => {
    const sessions = await sessionsById(home);
    const categories: string[] = [];
    for (const top of tops) {
      const calls = sessions.get(top.sessionId)?.calls ?? [];
      const failed = calls
        .filter((c) => c.status === 'error')
        .map((c) => c.id as string)
        .sort();
      const want = [...new Set([...top.failedByClient.map((f) => f.callId), ...top.expectedFailures])].sort();
      expect({ scenario: top.scenario, failed }).toEqual({ scenario: top.scenario, failed: want });
      for (const call of calls.filter((c) => c.status === 'error')) {
        const error = call.result?.error;
        const code = error?.exitCode === undefined ? '' : ` ${error.exitCode}`;
        categories.push(`${top.scenario} ${call.name}: ${call.result?.typed.kind} ${error?.category}${code}`);
      }
    }
    expect(categories.sort()).toEqual([
      'files edit: error string-not-found',
      'files read: error file-not-found',
      'mcp rec_fail: mcp other',
      'shell bash: error exit-code 2',
      'shell bash: error exit-code 3',
    ]);
    const shell = tops.find((f) => f.scenario === 'shell');
    const exits = (sessions.get(shell?.sessionId ?? '')?.calls ?? []).map((c) => c.result?.error?.exitCode ?? 0);
    expect(exits).toEqual(Object.values(shell?.shellExitCodes ?? {}).map((code) => (code === 1 ? 0 : code)));
  });

  test('calls are typed by their kind; grep exit 1 is an answer, not a failure', async () => {
    const sessions = await sessionsById(home);
    const kinds: Record<string, string> = {};
    for (const session of sessions.values()) {
      for (const call of session.calls.filter((c) => c.status === 'ok')) {
        kinds[call.name] = call.result?.typed.kind ?? '';
      }
    }
    expect(kinds).toEqual({
      bash: 'bash',
      edit: 'edit',
      glob: 'glob',
      grep: 'grep',
      read: 'read',
      rec_echo: 'mcp',
      task: 'agent',
      write: 'write',
    });
    const shell = tops.find((f) => f.scenario === 'shell');
    const grep = sessions
      .get(shell?.sessionId ?? '')
      ?.calls.find((c) => (c.input as { command?: string }).command === 'grep zzz data.txt');
    expect({ status: grep?.status, typed: grep?.result?.typed }).toMatchObject({
      status: 'ok',
      typed: { kind: 'bash', data: { exitCode: 1, returnCodeInterpretation: 'No matches found' } },
    });
  });

  test('tokens equal what was served, response by response, in the order served', async () => {
    const { files } = await openCodeAdapter.discover(home);
    const byScenario = new Map<string, { at: string; usage: Usage }[]>();
    const scenarioOf = new Map(manifest.map((f) => [f.sessionId, f.scenario]));
    for (const file of files) {
      const scenario = scenarioOf.get(file.agentId ?? file.sessionId ?? '') ?? '?';
      await openCodeAdapter.streamRecords(
        file,
        (event: RecordEvent) => {
          if (event.kind === 'record' && event.record.kind === 'assistant' && event.record.usage !== undefined) {
            const list = byScenario.get(scenario) ?? [];
            list.push({ at: event.record.timestamp ?? '', usage: event.record.usage });
            byScenario.set(scenario, list);
          }
        },
        {},
      );
    }
    let responses = 0;
    for (const top of tops) {
      const got = (byScenario.get(top.scenario) ?? []).sort((a, b) => a.at.localeCompare(b.at)).map((r) => r.usage);
      const want = served
        .filter((s) => s.scenario === top.scenario && s.usage !== null)
        .map((s): Usage => {
          const usage = s.usage as NonNullable<Served['usage']>;
          const cached = usage.prompt_tokens_details.cached_tokens;
          return {
            inputTokens: usage.prompt_tokens - cached,
            outputTokens: usage.completion_tokens,
            cacheCreationInputTokens: 0,
            cacheCreation1hInputTokens: 0,
            cacheReadInputTokens: cached,
          };
        });
      expect({ scenario: top.scenario, usage: got }).toEqual({ scenario: top.scenario, usage: want });
      responses += want.length;
    }
    expect(responses).toBe(55);
  });

  test("each call's duration is the tool's own start → end", async () => {
    const sessions = await sessionsById(home);
    const calls = [...sessions.values()].flatMap((s) => [...s.calls]);
    expect(calls.length).toBe(122);
    for (const call of calls) {
      expect(call.durations.map((d) => d.source)).toEqual(['timestamps']);
    }
  });

  test('the resumed session is one: both prompts, both turns; resumed with opencode --session', async () => {
    const sessions = await sessionsById(home);
    const resume = tops.find((f) => f.scenario === 'resume');
    expect(sessions.get(resume?.sessionId ?? '')?.calls.map((c) => c.name)).toEqual(['bash', 'read']);
    expect(openCodeAdapter.resume).toEqual(['opencode', '--session']);
  });
});
