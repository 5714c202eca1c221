/**
 * The Markdown export keeps what the timeline shows beside the conversation: a response's block of a kind AgentDash
 * does not know (Claude Code's `fallback`), named and with its raw data, and the notes (an API error with its retry).
 * Both were left out of the export without a word, as was a prompt's image (named now, not embedded). Written inert
 * like the rest (markdown-export-inert.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverFiles, groupSessions, loadSession } from '@agentdash/core';
import { basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { micromark } from 'micromark';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { markdownChunks } from './export-formats.js';

const MARKUP = '<img src=x onerror="alert(1)">';
let dir: string;
let markdown = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-md-notes-'));
  const id = nextSessionId();
  const at = basesOf(id);
  const base = (uuid: string, parent: string, second: number) => ({
    ...at(uuid, parent, second),
    cwd: '/home/user/proj/demo',
    version: '2.1.330',
  });
  writeLines(join(dir, 'projects', '-home-user-proj-demo', `${id}.jsonl`), [
    prompt(at('u1', null, 0), [
      { type: 'text', text: 'Go on.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]),
    JSON.stringify({
      ...base('e1', 'u1', 1),
      type: 'system',
      subtype: 'api_error',
      level: 'error',
      error: { message: 'Overloaded', status: 529, formatted: `529 Overloaded ${MARKUP}` },
      retryInMs: 560,
      retryAttempt: 1,
      maxRetries: 10,
    }),
    JSON.stringify({
      ...base('a1', 'e1', 2),
      type: 'assistant',
      message: {
        id: 'msg_notes_1',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [
          { type: 'text', text: 'Switched.' },
          { type: 'fallback', from: 'claude-opus-4-5', to: 'claude-sonnet-4-5', note: MARKUP },
        ],
        usage: { input_tokens: 3, output_tokens: 2 },
      },
    }),
  ]);
  const [group] = groupSessions((await discoverFiles([dir])).files);
  if (!group) throw new Error('no session');
  for await (const piece of markdownChunks(await loadSession(group))) markdown += piece;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("names a block of an unknown kind and gives its raw data, writes the timeline's notes, names an image", () => {
  expect(markdown).toContain('*unknown block fallback*');
  expect(markdown).toContain('Go on.\n\n*an image*');
  expect(markdown).toContain('{\n  "type": "fallback",\n  "from": "claude-opus-4-5",\n  "to": "claude-sonnet-4-5"');
  // the note's words whole: the markup a tag never closed is its text (inert, below)
  expect(markdown).toMatch(
    /\*API error\* · .*\n\n529 Overloaded &lt;img src=x onerror="alert\(1\)"> · retry 1 of 10 in 0\.6 s/,
  );
  // inert: the markup in both is text or code, never an element
  expect(micromark(markdown, { allowDangerousHtml: true })).not.toMatch(/<img\b/);
});
