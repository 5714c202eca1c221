import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexFixtures, repoRoot } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { Session, TimelineEvent } from '../../model/session.js';

/** Codex rollouts other people's clients wrote (../shared/wild-agents/SOURCES.md). */
const wild = resolve(repoRoot, '../shared/wild-agents/codex');

async function sessionsUnder(path: string): Promise<Session[]> {
  const { files } = await discoverAll([path]);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

async function sessionOf(path: string, id: string): Promise<Session> {
  const found = (await sessionsUnder(path)).find((s) => s.id === id);
  if (found === undefined) throw new Error(`no session ${id} under ${path}`);
  return found;
}

/** The lines of an assistant event's records (record uuids are `<session>:<line>`). */
function linesOf(event: Extract<TimelineEvent, { kind: 'assistant' }>): number[] {
  return event.uuids.map((uuid) => Number(/:(\d+)(?:\/result)?$/.exec(uuid)?.[1]));
}

/** The main thread as `P<line>` (a prompt) and `A<first>-<last>` (one response, by the lines of its records). */
function turns(session: Session): string[] {
  return session.events.flatMap((e) => {
    if (e.kind === 'prompt') return [`P${e.loc.line}`];
    if (e.kind !== 'assistant') return [];
    const lines = linesOf(e);
    return [`A${Math.min(...lines)}-${Math.max(...lines)}`];
  });
}

/** Responses whose records straddle a prompt (a reply shown before its prompt, or under the wrong one). */
function straddling(session: Session): string[] {
  const prompts = session.events.flatMap((e) => (e.kind === 'prompt' ? [e.loc.line] : []));
  return session.events.flatMap((e) => {
    if (e.kind !== 'assistant') return [];
    const lines = linesOf(e);
    const [first, last] = [Math.min(...lines), Math.max(...lines)];
    return prompts.some((p) => first < p && p < last) ? [`${session.id} A${first}-${last}`] : [];
  });
}

const promptsOf = (s: Session) =>
  s.events.flatMap((e) => (e.kind === 'prompt' ? [`${e.loc.line}: ${e.text.slice(0, 30)}`] : []));

const turnsDir = join(codexFixtures, 'turns');

describe('a prompt ends the response: replies come after their prompt, never merged across it', () => {
  test('legacy (Aug 2025, no token events): one response per request, ended by the state the client saved', async () => {
    // Each request's items, then its tools' outputs, then two `record_type: state` lines. Was one response per prompt:
    // a turn of eight requests and their calls read as one reply.
    const session = await sessionOf(turnsDir, '84b6da18-7357-4ad0-89d6-64f637ddde0d');
    const requests = [25, 30, 35, 40, 45, 50, 55].map((line) => `A${line}-${line + 2}`);
    expect(turns(session)).toEqual(['P6', 'A9-10', 'P12', 'A15-17', 'A20-20', 'P22', ...requests, 'A60-60']);
    expect(session.counts).toMatchObject({ prompts: 3, assistantMessages: 11 });
  });

  test('0.144: the review answer is its own response, ahead of the next prompt and its usage', async () => {
    // Lines 2-60 are lines 70-128 of the wild file (line n here is n + 68 there).
    const session = await sessionOf(turnsDir, '019f9261-846e-7fc0-b843-e0464227f290');
    expect(straddling(session)).toEqual([]);
    const answer = session.events.find((e) => e.kind === 'assistant' && linesOf(e).includes(16));
    const next = session.events.find((e) => e.kind === 'assistant' && linesOf(e).includes(24));
    expect(answer?.kind === 'assistant' ? linesOf(answer) : []).toEqual([16]);
    expect(answer?.kind === 'assistant' ? answer.usage : 'none').toBeUndefined();
    // The next turn's first response keeps its own token_count (line 30: 60,463 input, 59,136 of them cached).
    expect(next?.kind === 'assistant' ? [linesOf(next), next.usage?.cacheReadInputTokens] : []).toEqual([
      [24, 26, 27, 30],
      59_136,
    ]);
  });

  test('"the same answer again" is looked for within one response, not across prompts', async () => {
    const session = await sessionOf(turnsDir, '019b2ea4-aaaa-bbbb-cccc-58208e1f0000');
    expect(turns(session)).toEqual(
      ['P4', 'A5-8', 'A9-9', 'P11', 'A12-12', 'P13', 'A14-14', 'P15', 'A16-16', 'P17'].concat([
        'A18-18',
        'P19',
        'A20-20',
      ]),
    );
    const repeated = session.events
      .filter((e) => e.kind === 'side' && e.record.kind === 'meta')
      .map((e) => (e.kind === 'side' && e.record.kind === 'meta' ? e.record.type : ''));
    expect(repeated).not.toContain('repeated-answer');
  });

  // Says "skipped" only when it is.
  const suiteTitle = !existsSync(wild)
    ? 'wild rollouts (skipped: ../shared/wild-agents/codex is not present)'
    : 'wild rollouts';
  describe.skipIf(!existsSync(wild))(suiteTitle, () => {
    test('no response of any wild rollout straddles a prompt', async () => {
      const sessions = (await Promise.all(readdirSync(wild).map((source) => sessionsUnder(join(wild, source))))).flat();
      expect(sessions.length).toBeGreaterThan(40);
      expect(sessions.flatMap(straddling)).toEqual([]);
    });

    test('legacy: the 14 prompts of a long session each get their replies', async () => {
      const session = await sessionOf(join(wild, 'ocodex-1'), '16853d29-f44c-4c97-8230-73c5f07bcfdf');
      const order = turns(session);
      expect(order.filter((t) => t.startsWith('P'))).toEqual(
        [5, 10, 62, 72, 81, 87, 90, 96, 102, 184, 202, 208, 257, 273].map((line) => `P${line}`),
      );
      // Each prompt's requests (each ended by the state the client saved), none for the prompt of line 87: the user
      // asked again (line 90) unanswered.
      const replies = order
        .join(' ')
        .split(/P\d+/)
        .slice(1)
        .map((between) => between.trim().split(/\s+/).filter(Boolean).length);
      expect(replies).toEqual([1, 11, 2, 2, 1, 0, 1, 1, 18, 3, 1, 11, 3, 21]);
    });
  });
});

describe('a /review turn: the request is the prompt, the review output the client injects is not', () => {
  const review = 'Review the current code change';

  test('0.144: the user_message event is the prompt (once), the <user_action> message is hidden', async () => {
    // Lines 12-13 (80-81 of the wild file) are the request, written only as two user_message events; line 14 (82)
    // is the review's output the client hands the model as a user message.
    const session = await sessionOf(turnsDir, '019f9261-846e-7fc0-b843-e0464227f290');
    expect(promptsOf(session)).toEqual([
      `12: ${review}`,
      '22: implement changes recommended',
      `42: ${review}`,
      '53: implement changes',
    ]);
    const hidden = session.events.flatMap((e) => (e.kind === 'hidden' ? [[e.record.loc.line, e.reason]] : []));
    expect(hidden).toEqual(
      expect.arrayContaining([
        [14, 'meta'],
        [44, 'meta'],
      ]),
    );
    expect(turns(session)).toEqual(
      ['A2-8', 'P12', 'A16-16', 'P22', 'A24-30', 'A31-33', 'A35-36', 'P42', 'A46-46', 'P53'].concat(['A55-60']),
    );
  });

  const suiteTitle = !existsSync(wild)
    ? 'wild rollouts (skipped: ../shared/wild-agents/codex is not present)'
    : 'wild rollouts';
  describe.skipIf(!existsSync(wild))(suiteTitle, () => {
    test('no prompt is a <user_action> block; the review requests of entire-graph-4 are prompts', async () => {
      const sessions = (await Promise.all(readdirSync(wild).map((source) => sessionsUnder(join(wild, source))))).flat();
      const injected = sessions.flatMap((s) =>
        s.events.filter((e) => e.kind === 'prompt' && e.text.trimStart().startsWith('<user_action>')),
      );
      expect(injected).toEqual([]);
      const graph = await sessionOf(join(wild, 'entire-graph-4'), '019f9261-846e-7fc0-b843-e0464227f290');
      expect(promptsOf(graph).filter((p) => p.includes(review))).toEqual([`80: ${review}`, `110: ${review}`]);
    });
  });
});
