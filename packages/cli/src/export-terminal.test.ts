/**
 * `export` to a terminal shows the transcript's text as `show` does: no control character of it reaches the terminal
 * (an escape could clear the screen or retitle the window), each made visible, the line breaks kept. Into a pipe,
 * or with -o FILE (even from a terminal), JSON is data: its bytes are the transcript's text as written. A Markdown
 * document is for people, who `cat` it: its controls are shown as symbols there too, its tabs and lines kept (a
 * review: `cat` of a Markdown export cleared the screen, retitled the window and opened a hidden link).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from '@agentdash/core';
import {
  assistantText,
  basesOf,
  nextSessionId,
  prompt,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.js';
import { terminalText } from './io.js';
import { run } from './run.js';

/** Clear screen, cursor home, set the window title, then a C1 CSI, a carriage return, a backspace, NUL and DEL. */
const EVIL = '\u001b[2J\u001b[H\u001b]0;PWNED\u0007\u009b31m\r\b\u0000\u007f';
const PROMPT = `run the PWNED tests ${EVIL} please\nsecond line`;

const here = dirname(fileURLToPath(import.meta.url));
const viewerBuilt = existsSync(resolve(here, '../../web/dist/export/export.js'));
const formats = ['markdown', 'json', 'envelope', ...(viewerBuilt ? ['html'] : [])];

/** Every control character but the line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const controlsIn = (text: string) => [...new Set(text.match(CONTROL) ?? [])];
/** The HTML export embeds the moment it was made; nothing else may differ between two runs. */
const withoutExportTime = (text: string) => text.replace(/"exportedAt":"[^"]*"/, '"exportedAt":…');

let dir: string;
let home: string;
let sessionId: string;

/** `agentdash export SESSION HOME --format FORMAT` in-process, its standard output a terminal or not. */
async function exportAs(format: string, tty: boolean, extra: readonly string[] = []) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: home },
    homedir: dir,
    now: Date.now,
  };
  const code = await run(['export', sessionId, home, '--format', format, ...extra, '--db', join(dir, 'db')], io);
  expect(code, stderr).toBe(0);
  return withoutExportTime(stdout);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-export-tty-'));
  home = join(dir, 'home');
  sessionId = nextSessionId();
  const base = basesOf(sessionId);
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), [
    prompt(base('e1000000-0000-4000-8000-000000000001', null, 1), PROMPT),
    toolUse(
      base('e1000000-0000-4000-8000-000000000002', 'e1000000-0000-4000-8000-000000000001', 2),
      'msg_1',
      'toolu_1',
      'Bash',
      {
        command: `echo PWNED ${EVIL}`,
      },
    ),
    toolResult(
      base('e1000000-0000-4000-8000-000000000003', 'e1000000-0000-4000-8000-000000000002', 3),
      'toolu_1',
      `PWNED output ${EVIL}\nline two`,
      false,
    ),
    assistantText(
      base('e1000000-0000-4000-8000-000000000004', 'e1000000-0000-4000-8000-000000000003', 4),
      'msg_2',
      `PWNED reply ${EVIL} done`,
    ),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export to a terminal', () => {
  for (const format of formats) {
    it(`${format}: no control character reaches the terminal; each line is the piped one made safe`, async () => {
      const piped = await exportAs(format, false);
      const shown = await exportAs(format, true);
      // Markdown holds none into a pipe either (tabs aside), JSON its data as it is
      expect(controlsIn(piped).filter((c) => c !== '\t').length > 0).toBe(format !== 'markdown');
      expect(controlsIn(shown)).toEqual([]);
      // Nothing dropped or moved: line by line, the same text with its controls made visible.
      expect(shown.split('\n')).toEqual(piped.split('\n').map(terminalText));
    });
  }

  it('markdown shows the prompt with its controls visible and its line break kept', async () => {
    const shown = await exportAs('markdown', true);
    expect(shown).toContain('run the PWNED tests ␛[2J␛[H␛]0;PWNED␇�31m ␈␀␡ please\nsecond line');
  });
});

describe('export into a pipe or a file: the bytes as they are, Markdown with its controls visible', () => {
  it('json keeps the transcript text exactly; markdown with its controls visible, into a file too', async () => {
    expect(await exportAs('markdown', false)).toContain(
      'run the PWNED tests ␛[2J␛[H␛]0;PWNED␇�31m ␈␀␡ please\nsecond line',
    );
    const file = join(dir, 'readable.md');
    expect(await exportAs('markdown', false, ['-o', file])).toBe('');
    expect(controlsIn(readFileSync(file, 'utf8')).filter((c) => c !== '\t')).toEqual([]);
    const session = JSON.parse(await exportAs('json', false)) as Session;
    const first = session.events[0];
    expect(first?.kind === 'prompt' ? first.text : undefined).toBe(PROMPT);
  });

  for (const format of formats) {
    it(`${format}: -o FILE from a terminal writes what a pipe gets, byte for byte`, async () => {
      const file = join(dir, `out.${format}`);
      expect(await exportAs(format, true, ['-o', file])).toBe('');
      expect(withoutExportTime(readFileSync(file, 'utf8'))).toBe(await exportAs(format, false));
    });
  }
});
