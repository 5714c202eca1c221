/**
 * `export --format markdown`: a first prompt of several lines is the heading on one line, not Markdown structure; a
 * note's text whole, as the timeline shows it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assistantText,
  basesOf,
  nextSessionId,
  prompt,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

let dir: string;
let home: string;
const sessionId = nextSessionId();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-export-md-'));
  home = join(dir, 'home');
  const b = basesOf(sessionId);
  writeLines(join(home, 'projects', '-home-user-proj-md', `${sessionId}.jsonl`), [
    prompt(b('u1', null, 0), 'Fix the failing build.\n\n## Context\n- the CI log says "exit 2"'),
    assistantText(b('a1', 'u1', 1), 'msg_md_1', 'Looking into it.'),
    // a command's coloured output, and notes with bold (as /model writes it) and a tag never closed
    toolUse(b('a2', 'a1', 2), 'msg_md_2', 'toolu_md_1', 'Bash', { command: 'npm test' }),
    toolResult(b('u2', 'a2', 3), 'toolu_md_1', '\u001b[32m✓ 12 passed\u001b[39m', false),
    JSON.stringify({
      ...JSON.parse(prompt(b('s1', 'u2', 4), '')),
      type: 'system',
      subtype: 'local_command',
      content: '<local-command-stdout>Set model to \u001b[1mFable 5\u001b[22m</local-command-stdout>',
      message: undefined,
    }),
    JSON.stringify({
      ...JSON.parse(prompt(b('s2', 's1', 5), '')),
      type: 'system',
      subtype: 'weird_new_subtype',
      content: 'Returns Array<string> now <img src=x onerror=alert(1)> here',
      message: undefined,
    }),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("writes a multi-line first prompt as the heading's one line", async () => {
  const out = await runCli(['export', sessionId, home, '--format', 'markdown'], {
    home,
    db: join(dir, 'index.sqlite'),
    env: { CLAUDE_CONFIG_DIR: home },
  });
  expect(out.code, out.stderr).toBe(0);
  const lines = out.stdout.split('\n');
  // The title drops the prompt's heading marks (a prompt template's Markdown is no part of it).
  expect(lines[0]).toBe('# Fix the failing build. Context - the CI log says "exit 2"');
  expect(lines[1]).toBe('');
  expect(lines[2]).toMatch(/^- Session: /);
});

it("writes a note's words as the timeline shows them, the transcript's own text with its controls visible", async () => {
  const out = await runCli(['export', sessionId, home, '--format', 'markdown'], {
    home,
    db: join(dir, 'index.sqlite'),
    env: { CLAUDE_CONFIG_DIR: home },
  });
  expect(out.code, out.stderr).toBe(0);
  // a note is read (its bold out, as the timeline and find show it); a command's output is its text, its colour
  // codes shown as symbols (a reader's cat would run them: export-terminal.test)
  expect(out.stdout).toContain('\nSet model to Fable 5\n');
  expect(out.stdout).toContain('␛[32m✓ 12 passed␛[39m');
  // a tag the note never closes is its text, inert in Markdown (never markup)
  expect(out.stdout).toContain('Returns Array&lt;string> now &lt;img src=x onerror=alert(1)> here');
});
