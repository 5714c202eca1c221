/**
 * Search covers the notes a timeline shows beside the conversation: a slash command as typed (as user messages and
 * as the system records some Claude Code versions write), what it printed, a compaction's summary. They were left out
 * of the full text: `/goal`'s arguments, "Resume cancelled" or the summary that says what a compacted session did
 * found nothing, though the session's timeline shows them. Their hits read as the timeline shows them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_SESSION, writeCommandSession } from '@agentdash/testing/command-records';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';
import { HIGHLIGHT_END, HIGHLIGHT_START } from '../types.js';

const SESSION = '5ea7c4a0-0000-4000-8000-0000000000a1';
let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-search-notes-'));
  const home = join(dir, 'claude-home');
  writeCommandSession(home);
  // As Claude Code 2.1.199 wrote `/goal` (../shared/wild, git-sync-18) and 2.1.330 a compaction's summary.
  const at = basesOf(SESSION);
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), [
    prompt(
      at('u1', null, 1),
      '<command-name>/goal</command-name>\n            <command-message>goal</command-message>\n            <command-args>simplify the quorum module</command-args>',
    ),
    prompt(at('u2', 'u1', 2), '<local-command-stdout>Goal set: simplify the quorum module</local-command-stdout>'),
    JSON.stringify({
      ...JSON.parse(
        prompt(
          at('u3', 'u2', 3),
          'This session is being continued from a previous conversation. Summary: the walrus ranking was rewritten.',
        ),
      ),
      isCompactSummary: true,
    }),
    prompt(at('u4', 'u3', 4), 'Carry on.'),
    // an API error and its retry, as 2.1.x writes one: its words in its data, no content
    JSON.stringify({
      ...JSON.parse(prompt(at('e1', 'u4', 5), '')),
      type: 'system',
      subtype: 'api_error',
      level: 'error',
      message: undefined,
      error: { status: 529, formatted: '529 Overloaded: the capybara endpoint is busy' },
      retryInMs: 560,
      retryAttempt: 1,
      maxRetries: 10,
    }),
  ]);
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([home]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const plain = (snippet: string) => snippet.replaceAll(HIGHLIGHT_START, '').replaceAll(HIGHLIGHT_END, '');

describe('search over the notes a timeline shows', () => {
  it('finds a slash command by its arguments, and what it printed, as the timeline reads them', async () => {
    const hits = await index.search('quorum', { limit: 10 });
    expect(hits.map((h) => [h.sessionId, h.kind, plain(h.snippet)])).toEqual([
      [SESSION, 'note', '/goal simplify the quorum module'],
      [SESSION, 'note', 'Goal set: simplify the quorum module'],
    ]);
  });

  it("finds a compaction's summary, and a command Claude Code wrote as system records", async () => {
    expect((await index.search('walrus', { kind: 'note' })).map((h) => h.sessionId)).toEqual([SESSION]);
    const resume = await index.search('"Resume cancelled"');
    expect(resume.map((h) => [h.sessionId, h.kind, plain(h.snippet)])).toEqual([
      [COMMAND_SESSION, 'note', 'Resume cancelled'],
    ]);
    expect((await index.search('"remote-control"')).map((h) => h.kind)).toEqual(['note', 'note']);
  });

  it("finds an API error by the words of its data, as the timeline's note reads it", async () => {
    const hits = await index.search('capybara');
    expect(hits.map((h) => [h.sessionId, h.kind, plain(h.snippet)])).toEqual([
      [SESSION, 'note', '529 Overloaded: the capybara endpoint is busy · retry 1 of 10 in 0.6 s'],
    ]);
  });

  it('leaves out what the timeline hides: an empty output, the prompts stay prompts', async () => {
    expect((await index.search('Carry')).map((h) => h.kind)).toEqual(['prompt']);
    expect(await index.search('stdout')).toEqual([]);
  });
});
