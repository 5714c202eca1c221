import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { AgentWaitRenderer } from './kinds';
import { callOf } from './test-call';

/** Codex's wait_agent answer as in ../shared/wild-agents (entire-git-sync-1), texts shortened, as core types it. */
const answer = {
  status: {
    '019d7d09-b4a2-74f0-b87f-791514eb33b8': { completed: 'Findings\n\n1. **High**: prune semantics' },
    '019d7d09-b449-7180-ae04-3b7cfb51b201': { completed: '<script>alert(1)</script> done' },
  },
  timed_out: false,
};
const typed = {
  kind: 'agent-wait',
  tool: 'wait_agent',
  data: {
    agents: Object.entries(answer.status).map(([agentId, s]) => ({ agentId, status: 'completed', text: s.completed })),
    timedOut: false,
  },
} as unknown as TypedResult;

describe('Codex wait_agent', () => {
  it('shows each agent’s last message as Markdown under an id that tells the agents apart, not the JSON', () => {
    const html = renderToStaticMarkup(
      <AgentWaitRenderer
        call={callOf('wait_agent', { timeout_ms: 300000 }, JSON.stringify(answer), typed, 'agent-wait')}
      />,
    );
    expect(html).toContain('<strong>High</strong>');
    expect(html).toContain('019d7d09-b4a2');
    expect(html).toContain('019d7d09-b449');
    expect(html).toContain('2 agents');
    expect(html).not.toContain('\\n');
    expect(html).not.toContain('timed_out');
    expect(html).not.toContain('<script>');
  });

  it('names an agent by a prefix that tells it from every agent the call waited for', () => {
    const [first] = (typed as unknown as { data: { agents: unknown[] } }).data.agents;
    const one = { kind: 'agent-wait', tool: 'wait_agent', data: { agents: [first], timedOut: false } };
    const input = { targets: ['019d7d09-b4a2-74f0-b87f-791514eb33b8', '019d7d09-b4c5-7fa2-b5dc-e35b0979d316'] };
    const html = renderToStaticMarkup(
      <AgentWaitRenderer
        call={callOf('wait_agent', input, JSON.stringify(answer), one as unknown as TypedResult, 'agent-wait')}
      />,
    );
    // 019d7d09 alone would name either of the two waited for; the input's JSON shows the whole ids.
    expect(html).toMatch(/title="019d7d09-b4a2-74f0-b87f-791514eb33b8">019d7d09-b4a</);
  });

  it('says a wait timed out', () => {
    const out = {
      kind: 'agent-wait',
      tool: 'wait_agent',
      data: { agents: [], timedOut: true, message: 'Wait timed out.' },
    };
    const text = JSON.stringify({ message: 'Wait timed out.', timed_out: true });
    const html = renderToStaticMarkup(
      <AgentWaitRenderer call={callOf('wait_agent', {}, text, out as unknown as TypedResult, 'agent-wait')} />,
    );
    expect(html).toContain('timed out');
    expect(html).toContain('Wait timed out.');
  });
});
