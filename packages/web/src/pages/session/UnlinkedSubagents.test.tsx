import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionDetail, SubagentInfo } from '../../data/types';
import { NavBar } from './NavBar';
import { UnlinkedSubagents } from './UnlinkedSubagents';

const sub = (key: string, linkedBy: SubagentInfo['linkedBy'], errors: number, expectedErrors = 0): SubagentInfo =>
  ({
    key,
    agentId: key,
    parentCallId: linkedBy === 'unlinked' ? null : 'call_1',
    linkedBy,
    prompt: `Review the changes of ${key}.\nDo not edit files.`,
    agentType: null,
    startedAt: null,
    endedAt: null,
    events: 48,
    toolCalls: 58,
    errors,
    expectedErrors,
  }) as SubagentInfo;

describe('subagents no call of the timeline started', () => {
  it('each shows under the header, a line each, closed (a wild Codex review thread had no place at all)', () => {
    const detail = {
      subagents: [sub('linked', 'agent-id', 0), sub('orphan', 'unlinked', 3)],
    } as unknown as SessionDetail;
    const html = renderToStaticMarkup(<UnlinkedSubagents detail={detail} />);
    expect(html.match(/data-testid="unlinked-subagent"/g)).toHaveLength(1);
    expect(html).toContain('Review the changes of orphan.');
    expect(html).not.toContain('Do not edit files');
    expect(html).toMatch(/48 events · 58 tool calls · <span class="err-text">3<\/span> errors/);
    // several: one line for them all, closed (a phone's header stays a line taller at most)
    const two = { subagents: [sub('a', 'unlinked', 1), sub('b', 'unlinked', 2)] } as unknown as SessionDetail;
    const both = renderToStaticMarkup(<UnlinkedSubagents detail={two} />);
    expect(both).toMatch(/<b>2 subagents<\/b> not started by a call of this timeline · 116 tool calls · /);
    expect(both).not.toContain('data-testid="unlinked-subagent"');
    const none = { subagents: [sub('linked', 'agent-id', 0)] } as unknown as SessionDetail;
    expect(renderToStaticMarkup(<UnlinkedSubagents detail={none} />)).toBe('');
  });

  it('a session without its main file: its subagents are its main timeline, not listed again under the header', () => {
    const subagents = [sub('orphan', 'unlinked', 3)];
    const mainless = { mainFile: false, subagents } as unknown as SessionDetail;
    expect(renderToStaticMarkup(<UnlinkedSubagents detail={mainless} />)).toBe('');
    const withMain = { mainFile: true, subagents } as unknown as SessionDetail;
    expect(renderToStaticMarkup(<UnlinkedSubagents detail={withMain} />)).toMatch('data-testid="unlinked-subagent"');
  });

  it('counts a subagent’s errors as given: its expected ones are already apart', () => {
    const detail = { subagents: [sub('orphan', 'unlinked', 3, 2)] } as unknown as SessionDetail;
    expect(renderToStaticMarkup(<UnlinkedSubagents detail={detail} />)).toMatch(
      /58 tool calls · <span class="err-text">3<\/span> errors/,
    );
  });

  it('the error bar says how many errors are there, out of its steps', () => {
    const bar = (elsewhere: number) =>
      renderToStaticMarkup(
        <NavBar
          errors={[]}
          elsewhere={elsewhere}
          errorPos={-1}
          onError={() => {}}
          errorsOnly={false}
          onErrorsOnly={() => {}}
          findInput={{ current: null }}
          query=""
          onQuery={() => {}}
          found={undefined}
          hitPos={-1}
          onHit={() => {}}
          showHits={false}
          onShowHits={() => {}}
        />,
      );
    expect(bar(3)).toContain('+3 in subagents above');
    expect(bar(0)).not.toContain('in subagents above');
  });
});

describe("a compaction's summarising run (Claude Code's agent-acompact-…)", () => {
  it('is said as what it is, a line of its own, not as a subagent no call started', () => {
    const compaction = { ...sub('acompact-e1f845', 'unlinked', 0), prompt: 'Your task is to create a summary' };
    const detail = { subagents: [compaction, sub('orphan', 'unlinked', 1)] } as unknown as SessionDetail;
    const html = renderToStaticMarkup(<UnlinkedSubagents detail={detail} />);
    expect(html).toMatch(
      /data-testid="compaction-run"[\s\S]*<b>Compaction<\/b>: the request that summarised the conversation for a compaction · 48 events/,
    );
    expect(html).not.toContain('Your task is to create a summary');
    // the other one as before
    expect(html.match(/data-testid="unlinked-subagent"/g)).toHaveLength(1);
    expect(html).toContain('Review the changes of orphan.');
  });
});
