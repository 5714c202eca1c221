/** `export --format markdown`: a first prompt of several lines is the heading on one line, not Markdown structure. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
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
