import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AgentStatsRow } from '../data/types';
import { AgentStatsTable } from './AgentBreakdown';

const tool = (name: string, calls: number, errors: number, expectedErrors: number) => ({
  tool: name,
  calls,
  errors,
  expectedErrors,
  errorRate: errors / calls,
  p50: null,
  p95: null,
  max: null,
  categories: {},
});

/** An agent's row: 300 calls in 2 sessions, 10 errors, 5 of them expected. */
const agentRow = (agent: AgentStatsRow['agent'], tools: AgentStatsRow['tools']): AgentStatsRow => ({
  agent,
  sessions: 2,
  calls: 300,
  errors: 10,
  expectedErrors: 5,
  errorRate: 10 / 300,
  tools,
});

describe('AgentStatsTable', () => {
  it("says the tools' figures are error rates and counts them as the row does, expected errors apart", () => {
    // Bash: 10 errors of 200 calls, 6 of them expected (a stopped shell): 2 % real, 5 % with the expected ones
    const row = (agent: AgentStatsRow['agent']) => agentRow(agent, [tool('Bash', 200, 10, 6), tool('Read', 100, 0, 0)]);
    const html = renderToStaticMarkup(<AgentStatsTable rows={[row('claude'), row('codex')]} />);
    expect(html).toContain('Most used tools · their error rate');
    expect(html).toContain('Bash 2.0%');
    expect(html).not.toContain('Bash 5');
  });

  it("shows an agent's real errors and their rate: the API's errors count the expected ones too", () => {
    // 10 errors of 300 calls, 5 of them expected: 5 real errors, 1.7 % (not 10 and 3.3 %)
    const row = (agent: AgentStatsRow['agent']) => agentRow(agent, [tool('Bash', 300, 10, 5)]);
    const html = renderToStaticMarkup(<AgentStatsTable rows={[row('claude'), row('codex')]} />);
    const cells = [...html.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells.slice(0, 4)).toEqual(['2', '300', '5', '1.7%']);
  });
});
