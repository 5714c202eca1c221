/**
 * `--json` on a terminal: `JSON.stringify` escapes C0 controls only, so a C1 control in a transcript (U+009B is a
 * CSI: `\u009b2J` clears a terminal that reads C1 in UTF-8) reached the terminal as it was. Every JSON output writes
 * DEL and C1 as `\u00XX`: the same value, parsed back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { run } from './run.js';

const HOSTILE = 'before \u009b2J\u009d0;title\u0007 del\u007f after';
const C1_OR_DEL = /[\u007f-\u009f]/;

let dir: string;
let home: string;
let sessionId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-json-controls-'));
  home = join(dir, 'home');
  sessionId = nextSessionId();
  const base = basesOf(sessionId)('e0000000-0000-4000-8000-000000000001', null, 1);
  writeLines(join(home, 'projects', '-p', `${sessionId}.jsonl`), [prompt(base, HOSTILE)]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function json(args: readonly string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: true, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: home, NO_COLOR: '1' },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, home, '--db', join(dir, 'index.sqlite'), '--json'], io);
  expect(code, stderr).toBe(0);
  return stdout;
}

describe('--json output', () => {
  it.each([
    ['show (streamed)', () => ['show', sessionId]],
    ['sessions', () => ['sessions']],
    ['search', () => ['search', 'after']],
  ])('%s writes no DEL or C1 control, and parses back to the transcript text', async (_, args) => {
    const out = await json(args());
    expect(C1_OR_DEL.test(out)).toBe(false);
    expect(out).toContain('\\u009b2J');
    expect(JSON.stringify(JSON.parse(out))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  });
});
