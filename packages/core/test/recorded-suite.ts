/**
 * The checks every recording of the shared scenarios passes (issue 37; scripts/record): the adapter reads the
 * recording's home as the dashboard does, and what it finds equals the recording's own manifest (session files, calls
 * per tool, failures) and truth (each response's tokens, by the id the client wrote). One suite for every recorded
 * agent; an agent's test file adds what is its own (the failure categories and result kinds it expects, its quirks).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AgentAdapter } from '../src/agents/adapter.js';
import { groupSessions, loadSession } from '../src/index.js';
import type { RecordEvent } from '../src/model/raw.js';
import type { Usage } from '../src/model/record.js';
import type { Session } from '../src/model/session.js';

export interface ManifestFile {
  readonly path: string;
  readonly scenario: string;
  readonly sessionId?: string;
  readonly toolCallsByName: Readonly<Record<string, number>>;
  readonly failedByClient: readonly { readonly callId: string; readonly name: string }[];
  readonly expectedFailures: readonly string[];
}
interface Served {
  readonly scenario: string;
  readonly id: string;
  readonly kind: string;
  readonly status: number;
  readonly usage: null | Readonly<Record<string, unknown>>;
}

export interface RecordedOptions {
  readonly label: string;
  readonly adapter: AgentAdapter;
  /** The recording's folder (manifest.json, truth.jsonl) and its home, relative to it. */
  readonly recorded: string;
  readonly home: string;
  /** Per failed call, `<scenario> <tool>` → `<typed kind> <category>[ <exit code>]`. */
  readonly failures: Readonly<Record<string, string>>;
  /** The typed kind of each tool's successful result. */
  readonly kinds: Readonly<Record<string, string>>;
  /** Responses whose usage the client wrote, keyed by the id it was served. */
  readonly responses: number;
}

/** A served usage (Chat Completions or Messages) in AgentDash's terms. */
export function usageServed(u: Readonly<Record<string, unknown>>): Usage {
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  if (u.input_tokens !== undefined) {
    return {
      inputTokens: n(u.input_tokens),
      outputTokens: n(u.output_tokens),
      cacheCreationInputTokens: n(u.cache_creation_input_tokens),
      cacheCreation1hInputTokens: 0,
      cacheReadInputTokens: n(u.cache_read_input_tokens),
    };
  }
  const cached = n((u.prompt_tokens_details as { cached_tokens?: number } | undefined)?.cached_tokens);
  return {
    inputTokens: n(u.prompt_tokens) - cached,
    outputTokens: n(u.completion_tokens),
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}

/** The recording's manifest files and served responses. */
export function readRecording(recorded: string): { files: ManifestFile[]; served: Served[] } {
  const manifest = JSON.parse(readFileSync(join(recorded, 'manifest.json'), 'utf8')) as { files: ManifestFile[] };
  const served = readFileSync(join(recorded, 'truth.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Served);
  return { files: manifest.files, served };
}

/** Every session of the recording, by each of its files' paths. */
export async function sessionsByPath(adapter: AgentAdapter, home: string): Promise<Map<string, Session>> {
  const { files } = await adapter.discover(home);
  const sessions = new Map<string, Session>();
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    for (const file of session.files) sessions.set(file.path, session);
  }
  return sessions;
}

export function recordedSuite(options: RecordedOptions): void {
  const { adapter, recorded } = options;
  const home = join(recorded, options.home);
  const { files: manifest, served } = readRecording(recorded);
  const pathOf = (file: ManifestFile) => join(recorded, file.path);
  const scenarios = [...new Set(manifest.map((f) => f.scenario))];
  /** The calls of a scenario's sessions, each once (a subagent's file may be a session of its own or its caller's). */
  const callsOf = (sessions: Map<string, Session>, scenario: string) => {
    const seen = new Map<string, Session['calls'][number]>();
    for (const file of manifest.filter((f) => f.scenario === scenario)) {
      for (const call of sessions.get(pathOf(file))?.calls ?? []) seen.set(call.id, call);
    }
    return [...seen.values()];
  };

  describe(`${options.label} (recorded against a scripted model)`, () => {
    test('every session file is found, its session carrying the agent and the scenario folder', async () => {
      const sessions = await sessionsByPath(adapter, home);
      expect([...sessions.keys()].sort()).toEqual(manifest.map(pathOf).sort());
      for (const file of manifest) {
        const session = sessions.get(pathOf(file));
        expect({ path: file.path, agent: session?.agent, cwd: session?.projectPath }).toEqual({
          path: file.path,
          agent: adapter.id,
          cwd: `/home/user/proj/${file.scenario}`,
        });
        if (file.sessionId !== undefined) expect(session?.id).toBe(file.sessionId);
      }
    });

    test('calls per tool equal the manifest, every call paired', async () => {
      const sessions = await sessionsByPath(adapter, home);
      for (const scenario of scenarios) {
        const calls = callsOf(sessions, scenario);
        const counts: Record<string, number> = {};
        for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
        const want: Record<string, number> = {};
        for (const file of manifest.filter((f) => f.scenario === scenario)) {
          for (const [name, n] of Object.entries(file.toolCallsByName)) want[name] = (want[name] ?? 0) + n;
        }
        expect({ scenario, counts }).toEqual({ scenario, counts: want });
        expect(calls.filter((c) => c.result === undefined).map((c) => c.id)).toEqual([]);
      }
    });

    test('failures equal the manifest (the client-flagged and the scripted), each classified', async () => {
      const sessions = await sessionsByPath(adapter, home);
      const categories: Record<string, string> = {};
      for (const scenario of scenarios) {
        const calls = callsOf(sessions, scenario);
        const failed = calls
          .filter((c) => c.status === 'error')
          .map((c) => c.id as string)
          .sort();
        const files = manifest.filter((f) => f.scenario === scenario);
        const want = new Set(files.flatMap((f) => [...f.failedByClient.map((x) => x.callId), ...f.expectedFailures]));
        expect({ scenario, failed }).toEqual({ scenario, failed: [...want].sort() });
        for (const call of calls.filter((c) => c.status === 'error')) {
          const error = call.result?.error;
          categories[`${scenario} ${call.name}`] =
            `${call.result?.typed.kind} ${error?.category}${error?.exitCode === undefined ? '' : ` ${error.exitCode}`}`;
        }
      }
      expect(categories).toEqual(options.failures);
    });

    test('successful calls are typed by their kind; grep finding nothing is an answer', async () => {
      const sessions = await sessionsByPath(adapter, home);
      const kinds: Record<string, string> = {};
      for (const session of new Set(sessions.values())) {
        for (const call of session.calls.filter((c) => c.status === 'ok'))
          kinds[call.name] = call.result?.typed.kind ?? '';
      }
      expect(kinds).toEqual(options.kinds);
      const grep = callsOf(sessions, 'shell').find(
        (c) => (c.input as { command?: string }).command === 'grep zzz data.txt',
      );
      expect({ status: grep?.status, typed: grep?.result?.typed }).toMatchObject({
        status: 'ok',
        typed: { kind: 'bash', data: { returnCodeInterpretation: 'No matches found' } },
      });
    });

    test('tokens equal what was served, response by response, keyed by the response id', async () => {
      const usageById = new Map<string, Usage>();
      const { files } = await adapter.discover(home);
      for (const file of files) {
        await adapter.streamRecords(
          file,
          (event: RecordEvent) => {
            if (event.kind === 'record' && event.record.kind === 'assistant' && event.record.usage !== undefined) {
              const { reasoningOutputTokens: _, ...usage } = event.record.usage;
              usageById.set(event.record.messageId ?? '', usage);
            }
          },
          {},
        );
      }
      const want = new Map<string, Usage>();
      for (const s of served) if (s.usage !== null && s.kind !== 'side') want.set(s.id, usageServed(s.usage));
      expect(want.size).toBe(options.responses);
      expect(Object.fromEntries(usageById)).toEqual(Object.fromEntries(want));
    });
  });
}
