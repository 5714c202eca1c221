import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto } from '../data/types';
import { InTimeline } from '../timeline/test-context';
import { AgentRenderer } from './agent';
import { callOf } from './test-call';

const docs = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/dashboard.md'), 'utf8');

const call: CallDto = {
  ...callOf('Agent', { prompt: 'look around' }, 'done', { kind: 'agent', tool: 'Agent', data: {} } as never, 'agent'),
  subagent: {
    key: 'agent-a1',
    agentId: 'a1',
    parentCallId: 'toolu_1',
    linkedBy: 'agent-id',
    prompt: 'look around',
    agentType: null,
    startedAt: null,
    endedAt: null,
    events: 3,
    toolCalls: 1,
    errors: 0,
    expectedErrors: 0,
  },
};

function rendered(open: boolean): string {
  return renderToStaticMarkup(
    <InTimeline
      over={{
        openAll: { version: 1, open },
        SubagentView: ({ agentKey }) => <div data-testid="sub-view">{agentKey}</div>,
      }}
    >
      <AgentRenderer call={call} />
    </InTimeline>,
  );
}

describe('"Expand all" and an Agent call\'s subagent timeline', () => {
  it('opens it, and "Collapse all" closes it', () => {
    expect(rendered(true)).toMatch(/data-testid="sub-view">agent-a1</);
    expect(rendered(false)).not.toMatch(/sub-view/);
  });

  it('is what docs/dashboard.md says (before: "not the subagents\' own timelines, opened one by one")', () => {
    const said =
      /"Expand all" \/ "Collapse all" act on\s+every block, thinking and the subagents' own timelines included/;
    expect(docs).toMatch(said);
  });
});
