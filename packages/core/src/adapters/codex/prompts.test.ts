import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexFixtures, repoRoot } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';
import { splitIdePrompt } from './injected.js';
import { streamCodexRecords } from './stream.js';

/** Codex rollouts other people's clients wrote (../shared/wild-agents/SOURCES.md). */
const wild = resolve(repoRoot, '../shared/wild-agents/codex');

async function sessionsUnder(path: string): Promise<Session[]> {
  const { files } = await discoverAll([path]);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

const promptsOf = (s: Session | undefined) =>
  s?.events.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text.slice(0, 60) : ''));

describe('the first prompt is what the user typed, not the context the client put before it', () => {
  test('bundled: a <recommended_plugins> block is hidden; an IDE prompt is its "My request for Codex" part', async () => {
    const sessions = await sessionsUnder(join(codexFixtures, 'prompts'));
    const byId = new Map(sessions.map((s) => [s.id as string, s]));
    const plugins = byId.get('019f8af9-3076-71f2-9bb4-911cbf338fbd');
    const ide = byId.get('019982b8-3422-79e0-8b3b-05abaf4f3c3e');
    expect({ title: plugins?.title?.slice(0, 60), prompts: promptsOf(plugins) }).toEqual({
      title: 'Do an adversarial review of https://entire.io/gh/entireio/en',
      prompts: ['Do an adversarial review of https://entire.io/gh/entireio/en'],
    });
    expect({ title: ide?.title?.slice(0, 60), prompts: promptsOf(ide) }).toEqual({
      title: 'Evaluate @packages/services and create a new \n  package call',
      prompts: ['Evaluate @packages/services and create a new \n  package call'],
    });
    expect(sessions.map((s) => s.counts.prompts)).toEqual([1, 1]);
  });

  test("an IDE prompt's line gives the prompt first (the index keeps one row per line: the first one)", async () => {
    const { files } = await discoverAll([join(codexFixtures, 'prompts')]);
    const file = files.find((f) => f.path.includes('019982b8-3422-79e0-8b3b-05abaf4f3c3e'));
    const byLine = new Map<number, string[]>();
    await streamCodexRecords(file?.path ?? '', (event) => {
      if (event.kind !== 'record') return;
      const r = event.record;
      const kinds = byLine.get(r.loc.line) ?? [];
      kinds.push(r.kind === 'meta' ? `meta:${r.type}` : r.kind === 'user' && !r.isMeta ? 'prompt' : r.kind);
      byLine.set(r.loc.line, kinds);
    });
    expect([...byLine.values()].filter((kinds) => kinds.includes('meta:ide-context'))).toEqual([
      ['prompt', 'meta:ide-context'],
    ]);
  });

  test('splitIdePrompt: the extension context apart from the request; other texts untouched', () => {
    expect(
      splitIdePrompt('\n# Files mentioned by the user:\n\n## a.png: /tmp/a.png\n\n## My request for Codex:\nadd it\n'),
    ).toEqual({
      context: '# Files mentioned by the user:\n\n## a.png: /tmp/a.png\n\n## My request for Codex:',
      request: 'add it\n',
    });
    expect(splitIdePrompt('# Context from my IDE setup:\n\n## Open tabs:\n- a.ts: a.ts\n')).toBeUndefined();
    expect(splitIdePrompt('fix the bug\n## My request for Codex:\nx')).toBeUndefined();
  });

  // Says "skipped" only when it is.
  const suiteTitle = !existsSync(wild)
    ? 'wild rollouts (skipped: ../shared/wild-agents/codex is not present)'
    : 'wild rollouts';
  describe.skipIf(!existsSync(wild))(suiteTitle, () => {
    test('no session is titled by injected context; the seven that were are titled by the request', async () => {
      const sessions = (await Promise.all(readdirSync(wild).map((source) => sessionsUnder(join(wild, source))))).flat();
      const injected = sessions.filter((s) =>
        /^\s*(?:<recommended_plugins>|# Context from my IDE setup:)/.test(s.title ?? ''),
      );
      expect(injected.map((s) => s.id)).toEqual([]);
      const titles = Object.fromEntries(
        sessions
          .filter((s) =>
            [
              '019f8af9-3076-71f2-9bb4-911cbf338fbd',
              '019f80ed-65ac-7eb3-9c28-9885c0fbca91',
              '01997e76-d124-7592-9cac-2ec05abbca08',
              '01997ea4-a70d-7da3-8c20-c736db82a7c5',
              '0199812e-64f0-7f73-91fc-095dda01c36e',
              '01998190-fba6-7f40-9309-dc4e48c5844a',
              '019982b8-3422-79e0-8b3b-05abaf4f3c3e',
            ].includes(s.id),
          )
          .map((s) => [s.id, s.title?.slice(0, 40)]),
      );
      expect(titles).toEqual({
        '019f8af9-3076-71f2-9bb4-911cbf338fbd': 'Do an adversarial review of https://enti',
        '019f80ed-65ac-7eb3-9c28-9885c0fbca91': 'Review all open PRs for the entire-graph',
        '01997e76-d124-7592-9cac-2ec05abbca08': 'Updating a team to assign a lead or chan',
        '01997ea4-a70d-7da3-8c20-c736db82a7c5': 'When I load the dashboard, I see 4 queri',
        '0199812e-64f0-7f73-91fc-095dda01c36e': 'Quality score \n\nCreate a page that shows',
        '01998190-fba6-7f40-9309-dc4e48c5844a': 'I want to migrate this app from\n  @supab',
        '019982b8-3422-79e0-8b3b-05abaf4f3c3e': 'Evaluate @packages/services and create a',
      });
      // every wild rollout read: 1.2 s alone, past the fast loop's 5 s on a machine busy with other work
    }, 30_000);
  });
});
