import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto, SubagentInfo, TypedResult } from '../data/types';
import { AgentRenderer } from './agent';
import { callOf } from './test-call';

/** An Agent call whose subagent made `calls` tool calls in `events` events, with the client's totals when given. */
function agentCall(calls: number, events: number, totals: boolean): CallDto {
  const typed = {
    kind: 'agent',
    tool: 'Agent',
    data: { status: 'completed', text: 'done', ...(totals ? { totalToolUseCount: calls, totalTokens: 1200 } : {}) },
  } as unknown as TypedResult;
  const subagent = { key: 'agent-a1', events, toolCalls: calls } as unknown as SubagentInfo;
  return { ...callOf('Agent', { prompt: 'look' }, 'done', typed, 'agent'), subagent, subagentKey: 'agent-a1' };
}

/** The card's figures as text: the totals line and the subagent line. */
function figures(call: CallDto): string[] {
  const html = renderToStaticMarkup(<AgentRenderer call={call} />);
  const totals = /data-testid="agent-totals">(.*?)<\/div>/.exec(html)?.[1] ?? '';
  const head = /<span class="dim"[^>]*>([^<]*)<\/span><\/button>/.exec(html)?.[1] ?? '';
  return [
    totals
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    head,
  ];
}

describe('Agent card counts', () => {
  it('one tool call and one event are singular', () => {
    expect(figures(agentCall(1, 1, true))).toEqual([
      '1,200 tokens of context at its end 1 tool call',
      '1 event · 1 tool call',
    ]);
  });

  it('other counts are plural', () => {
    expect(figures(agentCall(0, 2, true))).toEqual([
      '1,200 tokens of context at its end 0 tool calls',
      '2 events · 0 tool calls',
    ]);
    expect(figures(agentCall(3, 7, false))).toEqual(['3 tool calls', '7 events · 3 tool calls']);
  });
});

describe("the client's token figures", () => {
  // A review: "19.1k tokens · 156 output" read as what the subagent used; they are its last response's (Claude Code's
  // totalTokens and usage), the subagent having used 98.7k tokens and written 690 over six responses.
  it("are said to be the last response's, not a sum", () => {
    const typed = {
      kind: 'agent',
      tool: 'Agent',
      data: {
        status: 'completed',
        text: 'done',
        totalToolUseCount: 6,
        totalTokens: 1200,
        usage: { outputTokens: 156 },
      },
    } as unknown as TypedResult;
    const withUsage = callOf('Agent', { prompt: 'look' }, 'done', typed, 'agent');
    expect(figures(withUsage)[0]).toBe(
      '1,200 tokens of context at its end 156 output in its last response 6 tool calls',
    );
    expect(renderToStaticMarkup(<AgentRenderer call={withUsage} />)).toContain('not a sum of its responses');
  });
});

describe("a background Agent's result", () => {
  it('is its launch, not its report: said so, never under "Report"', () => {
    const typed = {
      kind: 'agent',
      tool: 'Agent',
      data: { status: 'async_launched', text: 'Async agent launched successfully.' },
    } as unknown as TypedResult;
    const html = renderToStaticMarkup(
      <AgentRenderer call={callOf('Agent', { prompt: 'wait', run_in_background: true }, 'x', typed, 'agent')} />,
    );
    expect(html).toContain('Launched');
    expect(html).toContain('data-testid="agent-launched"');
    expect(html).toContain('Async agent launched successfully.');
    expect(html).not.toContain('>Report<');
    // a finished agent's is its report
    expect(renderToStaticMarkup(<AgentRenderer call={agentCall(1, 1, true)} />)).toContain('>Report<');
  });
});

describe('a report that is a JSON document (a Gemini CLI subagent’s structured output)', () => {
  // Before: drawn as Markdown, its lines joined into one paragraph.
  it('is shown as the JSON it is, line by line', () => {
    const report = '{\n  "SummaryOfFindings": "two modules",\n  "RelevantLocations": [\n    "src/app.js"\n  ]\n}';
    const typed = {
      kind: 'agent',
      tool: 'invoke_agent',
      data: { status: 'completed', text: report },
    } as unknown as TypedResult;
    const html = renderToStaticMarkup(
      <AgentRenderer call={callOf('invoke_agent', { prompt: 'look' }, report, typed, 'agent')} />,
    );
    expect(/data-testid="agent-report-json">([^<]*)</.exec(html)?.[1]).toBe(report.replaceAll('"', '&quot;'));
  });
  it('leaves Markdown reports to Markdown', () => {
    const typed = {
      kind: 'agent',
      tool: 'Agent',
      data: { status: 'completed', text: '# Found\n\n- a' },
    } as unknown as TypedResult;
    const html = renderToStaticMarkup(<AgentRenderer call={callOf('Agent', { prompt: 'look' }, '', typed, 'agent')} />);
    expect(html).not.toContain('agent-report-json');
    expect(html).toContain('<h1');
  });

  // Claude Code 2.1.x counts what a subagent did (`toolStats`); before, kept raw in the result and shown nowhere.
  it('shows the lines the subagent changed and its calls by kind, as the client counted them', () => {
    const data = { status: 'completed', text: 'done', totalToolUseCount: 7 };
    const typed = {
      kind: 'agent',
      tool: 'Agent',
      data: {
        ...data,
        toolStats: { reads: 3, searches: 0, commands: 1, fileEdits: 3, others: 0, linesAdded: 1204, linesRemoved: 31 },
      },
    } as unknown as TypedResult;
    const call = callOf('Agent', { prompt: 'look' }, 'done', typed, 'agent');
    expect(figures(call)[0]).toBe('7 tool calls +1,204 −31 lines 3 reads · 1 command · 3 file edits');
    // a subagent that changed nothing says no lines
    const none = { ...typed, data: { ...data, toolStats: { reads: 1, linesAdded: 0, linesRemoved: 0 } } };
    expect(figures(callOf('Agent', {}, 'done', none as TypedResult, 'agent'))[0]).toBe('7 tool calls 1 read');
  });
});
