import { describe, expect, it } from 'vitest';
import { loadSessions, samplesHome } from '../../test/helpers.js';
import { type RecordFact, SessionSummary } from './summary.js';

const fact = (stamp: string, extra: Partial<RecordFact<string>> = {}): RecordFact<string> => ({
  place: 'main',
  ms: undefined,
  stamp,
  cwd: undefined,
  version: undefined,
  gitBranch: undefined,
  model: undefined,
  responseKey: undefined,
  promptKey: undefined,
  ...extra,
});

describe('SessionSummary', () => {
  it('keeps the first met of equal times both ways, and skips records without one', () => {
    const summary = new SessionSummary<string>();
    for (const f of [
      fact('a', { ms: 20 }),
      fact('b', { ms: 10 }),
      fact('c', { ms: 10 }),
      fact('d'),
      fact('e', { ms: 30 }),
      fact('f', { ms: 30 }),
    ]) {
      summary.add(f);
    }
    const { startedAt, startedMs, endedAt, endedMs } = summary.finish(() => false);
    expect({ startedAt, startedMs, endedAt, endedMs }).toEqual({
      startedAt: 'b',
      startedMs: 10,
      endedAt: 'e',
      endedMs: 30,
    });
  });

  it("takes the main thread's first directory before any other, and its last non-empty branch", () => {
    const summary = new SessionSummary<string>();
    summary.add(fact('1', { place: 'sidechain', cwd: '/side', gitBranch: 'side' }));
    summary.add(fact('2', { place: 'subagent', cwd: '/sub' }));
    summary.add(fact('3', { cwd: '/main', gitBranch: 'one' }));
    summary.add(fact('4', { cwd: '/later', gitBranch: 'two' }));
    summary.add(fact('5', { gitBranch: '' }));
    summary.add(fact('6', { place: 'subagent', gitBranch: 'three' }));
    const { projectPath, gitBranch } = summary.finish(() => false);
    expect({ projectPath, gitBranch }).toEqual({ projectPath: '/main', gitBranch: 'two' });

    const withoutMain = new SessionSummary<string>();
    withoutMain.add(fact('1', { place: 'subagent', cwd: '/sub' }));
    withoutMain.add(fact('2', { place: 'sidechain', cwd: '/side' }));
    expect(withoutMain.finish(() => false).projectPath).toBe('/sub');
  });

  it('counts prompts of the main thread and responses anywhere, each key once; versions and models in first use', () => {
    const summary = new SessionSummary<string>();
    summary.add(fact('1', { promptKey: 'p1', version: '2.0.1' }));
    summary.add(fact('2', { promptKey: 'p1' }));
    summary.add(fact('3', { place: 'sidechain', promptKey: 'p2', version: '' }));
    summary.add(fact('4', { responseKey: 'm1', model: 'opus', version: '2.0.2' }));
    summary.add(fact('5', { place: 'subagent', responseKey: 'm2', model: 'haiku', version: '2.0.1' }));
    summary.add(fact('6', { responseKey: 'm1', model: 'opus' }));
    const { prompts, responses, versions, models } = summary.finish(() => false);
    expect({ prompts, responses, versions, models }).toEqual({
      prompts: 1,
      responses: 2,
      versions: ['2.0.1', '2.0.2'],
      models: ['opus', 'haiku'],
    });
  });

  it('titles by the last custom title, else the last AI title, else the last summary held, else the first prompt', () => {
    const titled = (facts: Parameters<SessionSummary<string>['addTitle']>[0][], held: readonly string[] = []) => {
      const summary = new SessionSummary<string>();
      for (const f of facts) summary.addTitle(f);
      const { title, titleSource } = summary.finish((uuid) => held.includes(uuid));
      return { title, titleSource };
    };
    const prompt = { source: 'first-prompt', title: 'fix the bug' } as const;
    const later = { source: 'first-prompt', title: 'and then' } as const;
    const summaries = [
      { source: 'summary', title: 'held', leaf: 'u1' },
      { source: 'summary', title: 'elsewhere', leaf: 'u2' },
    ] as const;
    expect(titled([prompt, later])).toEqual({ title: 'fix the bug', titleSource: 'first-prompt' });
    expect(titled([prompt, ...summaries], ['u1'])).toEqual({ title: 'held', titleSource: 'summary' });
    expect(titled([prompt, ...summaries], ['u1', 'u2'])).toEqual({ title: 'elsewhere', titleSource: 'summary' });
    expect(titled([prompt, ...summaries])).toEqual({ title: 'fix the bug', titleSource: 'first-prompt' });
    expect(
      titled([
        { source: 'ai-title', title: 'AI one' },
        { source: 'ai-title', title: 'AI two' },
        ...summaries,
        { source: 'custom-title', title: '' },
      ]),
    ).toEqual({ title: 'AI two', titleSource: 'ai-title' });
    expect(
      titled([
        { source: 'custom-title', title: 'mine' },
        { source: 'ai-title', title: 'AI' },
      ]),
    ).toEqual({ title: 'mine', titleSource: 'custom-title' });
    expect(titled([])).toEqual({ title: undefined, titleSource: undefined });
  });

  it('gives the loaded sample sessions their prompts as their timelines show them', async () => {
    const sessions = await loadSessions(samplesHome);
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(session.counts.prompts).toBe(session.events.filter((e) => e.kind === 'prompt').length);
    }
  });
});
