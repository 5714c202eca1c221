/**
 * The agent-API check every recorded agent passes (issue 37): a recording of the shared scenarios
 * (scripts/record/scenarios.mjs), indexed and served, read back through the API the dashboard uses. What to expect
 * comes from the recording's own manifest (its scenarios, calls per tool, failures), so one suite serves each agent;
 * an agent's test file adds only what is its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsResponse, CallDto, EventsPage, SessionsResponse } from '../src/api-types.js';
import { appOver, type TestApp } from './app-harness.js';

interface ManifestFile {
  readonly path: string;
  readonly scenario: string;
  readonly toolCallsByName: Readonly<Record<string, number>>;
  readonly failedByClient: readonly { readonly callId: string }[];
  readonly expectedFailures: readonly string[];
}
export interface RecordingManifest {
  readonly scenarios: readonly { readonly scenario: string }[];
  readonly files: readonly ManifestFile[];
}

export interface AgentApiOptions {
  /** The agent as /api/agents lists it. */
  readonly agent: { readonly id: string; readonly label: string; readonly resume: readonly string[] | null };
  /** The recording's folder (manifest.json) and its home, relative to it. */
  readonly fixture: string;
  readonly home: string;
  /** More folders indexed beside the recording (real sessions of the same agent). */
  readonly alsoIndexed?: readonly string[];
  /** The typed kind of each tool's successful result. */
  readonly kinds: Readonly<Record<string, string>>;
}

export const readManifest = (fixture: string): RecordingManifest =>
  JSON.parse(readFileSync(join(fixture, 'manifest.json'), 'utf8')) as RecordingManifest;

const typedOf = (c: CallDto) => (c.result?.typed ?? {}) as { kind?: string; data?: { exitCode?: number } };
const project = (scenario: string) => `/home/user/proj/${scenario}`;

/** The API suite over one recording, with `manifest` (readManifest) as what to expect. */
export function agentApiSuite(options: AgentApiOptions, manifest: RecordingManifest): void {
  const { agent } = options;
  let t: TestApp;
  beforeAll(async () => {
    t = await appOver([join(options.fixture, options.home), ...(options.alsoIndexed ?? [])]);
  });
  afterAll(async () => t.close());

  const callsOf = async (id: string): Promise<CallDto[]> => {
    const page = await t.json<EventsPage>(`/api/sessions/${encodeURIComponent(id)}/events?offset=0&limit=500`);
    return page.events.flatMap((e) =>
      e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
    );
  };
  const byScenario = (files: readonly ManifestFile[]) => {
    const out = new Map<string, ManifestFile[]>();
    for (const f of files) out.set(f.scenario, [...(out.get(f.scenario) ?? []), f]);
    return out;
  };

  describe(`${agent.label} sessions through the API`, () => {
    it('names the agent, its label and resume words', async () => {
      const { agents } = await t.json<AgentsResponse>('/api/agents');
      // Its homes and badge colours are checked for every agent in app.test.ts; here, what this recording knows.
      const listed = agents.find((a) => a.id === agent.id);
      expect(listed && { id: listed.id, label: listed.label, resume: listed.resume }).toEqual(agent);
    });

    it("lists a session per scenario with the agent's id; another agent's filter lists none of them", async () => {
      const all = await t.json<SessionsResponse>(`/api/sessions?agent=${agent.id}`);
      const projects = new Set(all.sessions.map((s) => s.projectPath));
      expect(manifest.scenarios.map((s) => project(s.scenario)).filter((p) => !projects.has(p))).toEqual([]);
      expect(new Set(all.sessions.map((s) => s.agent))).toEqual(new Set([agent.id]));
      const other = agent.id === 'claude' ? 'aider' : 'claude';
      expect((await t.json<SessionsResponse>(`/api/sessions?agent=${other}`)).sessions).toEqual([]);
    });

    it('counts the calls and failures of each scenario as the manifest does', async () => {
      const all = await t.json<SessionsResponse>(`/api/sessions?agent=${agent.id}`);
      for (const [scenario, files] of byScenario(manifest.files)) {
        const sessions = all.sessions.filter((s) => s.projectPath === project(scenario));
        const failed = new Set(files.flatMap((f) => [...f.failedByClient.map((x) => x.callId), ...f.expectedFailures]));
        const calls = files.reduce((n, f) => n + Object.values(f.toolCallsByName).reduce((a, b) => a + b, 0), 0);
        // A subagent's calls count in its caller's session.
        expect({ scenario, calls: sessions.reduce((n, s) => n + s.toolCalls, 0) }).toEqual({ scenario, calls });
        const ids = (await Promise.all(sessions.map((s) => callsOf(s.id)))).flat();
        const errors = ids.filter((c) => c.status === 'error').map((c) => c.id);
        expect({ scenario, errors: errors.sort() }).toEqual({ scenario, errors: [...failed].sort() });
      }
    });

    it('types each successful call by its kind; a non-zero exit is a failed call with its code', async () => {
      const all = await t.json<SessionsResponse>(`/api/sessions?agent=${agent.id}`);
      const kinds: Record<string, string> = {};
      for (const session of all.sessions.filter((s) =>
        manifest.scenarios.some((x) => project(x.scenario) === s.projectPath),
      )) {
        for (const call of await callsOf(session.id)) {
          if (call.status === 'ok') kinds[call.name] = typedOf(call).kind ?? '';
          expect(call.durationMs).toBeGreaterThanOrEqual(0);
        }
      }
      expect(kinds).toEqual(options.kinds);
      const shell = all.sessions.find((s) => s.projectPath === project('shell'));
      const exitOf = (c: CallDto) => (c.status === 'ok' ? typedOf(c).data?.exitCode : c.result?.error?.exitCode);
      const rows = (await callsOf(shell?.id ?? '')).map((c) => [
        c.status,
        c.result?.error?.category ?? null,
        exitOf(c),
      ]);
      // The shared shell scenario: exit 0, `ls` of a missing folder (2), grep finding nothing (1: an answer), exit 3.
      expect(rows).toEqual([
        ['ok', null, 0],
        ['error', 'exit-code', 2],
        ['ok', null, 1],
        ['error', 'exit-code', 3],
      ]);
    });
  });
}
