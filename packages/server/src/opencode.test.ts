import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentApiSuite, readManifest } from '../test/agent-api-suite.js';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { CallDto, EventsPage, SessionsResponse } from './api-types.js';

const fixture = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/opencode/1.18.33');

agentApiSuite(
  {
    agent: { id: 'opencode', label: 'OpenCode', resume: ['opencode', '--session'] },
    fixture,
    home: 'opencode-home',
    kinds: {
      write: 'write',
      read: 'read',
      glob: 'glob',
      grep: 'grep',
      edit: 'edit',
      bash: 'bash',
      task: 'agent',
      rec_echo: 'mcp',
    },
  },
  readManifest(fixture),
);

describe('OpenCode subagents through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appOver([resolve(fixture, 'opencode-home')]);
  });
  afterAll(async () => t.close());
  const json = <T>(path: string) => t.json<T>(path);
  const typedOf = (c: CallDto) => (c.result?.typed ?? {}) as { kind?: string };
  const callsOf = async (id: string): Promise<CallDto[]> => {
    const page = await json<EventsPage>(`/api/sessions/${encodeURIComponent(id)}/events?offset=0&limit=500`);
    return page.events.flatMap((e) =>
      e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
    );
  };

  it('shows the subagent session inside its caller, its task call typed as an agent run', async () => {
    const list = await json<SessionsResponse>('/api/sessions?agent=opencode');
    const sub = list.sessions.find((s) => s.projectPath === '/home/user/proj/subagent');
    const names = (await callsOf(sub?.id ?? '')).map((c) => `${c.name}:${typedOf(c).kind}`);
    expect(names).toContain('task:agent');
    expect(sub?.toolCalls).toBe(2);
  });
});
