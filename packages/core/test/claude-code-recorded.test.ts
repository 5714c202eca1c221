import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { claudeCodeAdapter } from '../src/adapters/claude-code/adapter.js';
import { readRecording, recordedSuite, sessionsByPath } from './recorded-suite.js';

/** Claude Code 2.1.332 recorded by `npm run drift claude` against the scripted model speaking Messages, trimmed. */
const recorded = join(resolve(dirname(fileURLToPath(import.meta.url)), 'fixtures/claude-code'), '2.1.332');

recordedSuite({
  label: 'Claude Code 2.1.332',
  adapter: claudeCodeAdapter,
  recorded,
  home: 'claude-home',
  failures: {
    'edit Edit': 'error string-not-found',
    'edit Read': 'error file-not-found',
    'mcp mcp__rec__fail': 'mcp other',
    'shell Bash': 'error exit-code 3',
  },
  kinds: { Agent: 'agent', Bash: 'bash', Edit: 'edit', Read: 'read', Write: 'write', mcp__rec__echo: 'mcp' },
  responses: 56,
});

describe('Claude Code 2.1.332: its own', () => {
  test("the subagent's transcript is linked to the Agent call that ran it", async () => {
    const { files } = readRecording(recorded);
    const sessions = await sessionsByPath(claudeCodeAdapter, join(recorded, 'claude-home'));
    const main = files.find((f) => f.scenario === 'subagent' && !f.path.includes('/subagents/'));
    const session = sessions.get(join(recorded, main?.path ?? ''));
    expect(session?.subagents.length).toBe(1);
    expect(claudeCodeAdapter.resume).toEqual(['claude', '--resume']);
  });
});
