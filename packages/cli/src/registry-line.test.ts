import { agentIds, isAgentId, loadHomes } from '@agentdash/core/base';
import type { AgentIndex, AgentsResponse } from '@agentdash/server';
import { createApp } from '@agentdash/server';
import { describe, expect, it, vi } from 'vitest';
import { run } from './run.js';

/*
 * Adding an agent is its folder and one line in the registry (docs/ARCHITECTURE.md). An eighth agent, registered by
 * that one line only (its descriptor's loaders borrow Codex's homes and parser under its own id), must show in every
 * place the registry feeds: the ids, `--agent` and the help, the homes, the adapters and `GET /api/agents`.
 */
vi.mock('../../core/src/agents/registry.js', async (importOriginal) => {
  const { agents } = await importOriginal<typeof import('../../core/src/agents/registry.js')>();
  const { defineAgent } = await import('../../core/src/agents/descriptor.js');
  const codex = agents.find((agent) => agent.id === 'codex');
  if (codex === undefined) throw new Error('the registry lists Codex');
  const fake = defineAgent({
    id: 'fake',
    label: 'Fake Agent',
    resume: ['fake', '--resume'],
    paths: 'a fake home',
    homes: '$FAKE_HOME',
    layout: 'fake/*.jsonl',
    projectFolder: false,
    badge: { dark: '#abcdef', light: '#123456' },
    loadHomes: async () => ({ ...(await codex.loadHomes()), id: 'fake', label: 'Fake Agent' }),
    loadAdapter: async () => ({ ...(await codex.loadAdapter()), id: 'fake', label: 'Fake Agent' }),
  });
  // The one line.
  return { agents: [...agents, fake] };
});

async function output(argv: readonly string[]): Promise<{ code: number; text: string }> {
  const written: string[] = [];
  const write = (text: string) => {
    written.push(text);
    return true;
  };
  const io = { stdout: { write }, stderr: { write }, env: { COLUMNS: '400' }, homedir: '/nonexistent', now: Date.now };
  const code = await run(argv, io);
  return { code, text: written.join('') };
}

describe('an eighth agent by one registry line', () => {
  it('is an agent id, named in the help and taken by --agent', async () => {
    expect(agentIds.at(-1)).toBe('fake');
    expect(isAgentId('fake')).toBe(true);
    expect((await output(['--help'])).text.split('\n')[0]).toContain('or Fake Agent transcripts');
    // The help is wrapped at 116 columns: read it as one line.
    const help = (await output(['sessions', '--help'])).text.replace(/\s+/g, ' ');
    expect(help).toMatch(/--agent AGENT only one agent's sessions: [^-]*\bfake\b/);
    expect(help).toContain('Fake Agent: a fake home');
    expect(help).toContain('$FAKE_HOME');
    const wrong = await output(['sessions', '--agent', 'nope']);
    expect(wrong.text).toContain('--agent must be one of claude, codex, gemini, copilot, qwen, opencode, aider, fake');
  });

  it('has its homes and its adapter loaded from its descriptor', async () => {
    expect((await loadHomes()).map((homes) => homes.id).at(-1)).toBe('fake');
    const { agentAdapters } = await import('@agentdash/core');
    expect(agentAdapters.map((adapter) => adapter.label).at(-1)).toBe('Fake Agent');
  });

  it('is served by GET /api/agents with its label, homes and badge', async () => {
    const app = createApp({ index: {} as AgentIndex, paths: [], host: '127.0.0.1', port: 0, checkHost: false });
    const { agents } = (await (
      await app.request('/api/agents', { headers: { host: 'localhost' } })
    ).json()) as AgentsResponse;
    expect(agents.at(-1)).toEqual({
      id: 'fake',
      label: 'Fake Agent',
      resume: ['fake', '--resume'],
      homes: '$FAKE_HOME',
      badge: { dark: '#abcdef', light: '#123456' },
      billingBlocks: false,
    });
  });
});
