/**
 * Text from transcripts never drives the terminal: a session whose prompt, reply, tool name, command, output, model,
 * working folder, title and record types hold escape sequences (clear screen, cursor home, window title, a C1 CSI),
 * carriage returns, backspaces, BEL and NUL is shown by every human-readable command with no control character on
 * stdout or stderr; with colour on, the only escapes are the CLI's own colours. --json keeps the text exactly.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assistantText,
  nextSessionId,
  prompt,
  type RecordBase,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { terminalText } from './io.js';
import type { SessionsJson } from './output/json-types.js';

/**
 * Clear screen, cursor home, set the window title, then a C1 CSI, a carriage return, a backspace, NUL and DEL, and
 * two bidirectional overrides (right-to-left, isolate), which reorder what a terminal shows after them.
 */
const EVIL = '\u001b[2J\u001b[H\u001b]0;PWNED\u0007\u009b31m\r\b\u0000\u007f\u202e\u2067';

let dir: string;
let db: string;
let home: string;
let file: string;
let sessionId: string;

const cli = (args: readonly string[], env: Record<string, string> = {}) =>
  runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home, ...env } });

/** Every control character but the line feed, and the bidirectional formatting characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The CLI's own colours (SGR). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the CLI's colour codes
const SGR = /\u001b\[[0-9;]*m/g;

const controlsIn = (text: string) => [...new Set(text.match(CONTROL) ?? [])];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-escapes-'));
  db = join(dir, 'index.sqlite');
  home = join(dir, 'home');
  sessionId = nextSessionId();
  file = join(home, 'projects', '-home-user-evil', `${sessionId}.jsonl`);
  const base = (n: number): RecordBase => ({
    sessionId,
    uuid: `7${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    parentUuid: n === 1 ? null : `7${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
    timestamp: `2026-11-21T21:0${n}:00.000Z`,
    cwd: `/home/user/evil${EVIL}dir`,
  });
  const withModel = (line: string) => {
    const record = JSON.parse(line) as { message: { model: string } };
    record.message.model = `claude-evil${EVIL}model`;
    return JSON.stringify(record);
  };
  writeLines(file, [
    prompt(base(1), `run the PWNED tests ${EVIL} please`),
    withModel(toolUse(base(2), 'msg_e1', 'toolu_evil_bash', 'Bash', { command: `echo PWNED ${EVIL}` })),
    toolResult(base(3), 'toolu_evil_bash', `Exit code 1\nPWNED output ${EVIL}`, true),
    withModel(toolUse(base(4), 'msg_e2', 'toolu_evil_tool', `Evil${EVIL}Tool`, { arg: EVIL })),
    toolResult(base(5), 'toolu_evil_tool', `PWNED ${EVIL}`, true),
    withModel(assistantText(base(6), 'msg_e3', `PWNED reply ${EVIL} done`)),
    JSON.stringify({ type: 'custom-title', customTitle: `PWNED title ${EVIL}`, sessionId }),
    JSON.stringify({ type: `evil${EVIL}record`, sessionId, timestamp: '2026-11-21T21:07:00.000Z' }),
  ]);
  appendFileSync(file, `${EVIL} PWNED not json\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commands = [
  ['index', '--verbose'],
  ['sessions'],
  ['show', ''],
  ['show', '', '--verbose'],
  ['search', 'PWNED'],
  ['stats'],
  ['usage'],
  ['usage', 'session'],
  ['usage', 'project'],
  ['usage', 'blocks'],
  ['secrets'],
] as const;

const argsOf = (command: readonly string[]) => [...command.map((a) => (a === '' ? sessionId : a)), home];

describe('text from transcripts never reaches the terminal as control characters', () => {
  it('without colour: no control character at all on stdout or stderr', async () => {
    for (const command of commands) {
      const r = await cli(argsOf(command));
      expect([command.join(' '), r.code, controlsIn(r.stdout), controlsIn(r.stderr)]).toEqual([
        command.join(' '),
        0,
        [],
        [],
      ]);
    }
    // The text is shown, its controls visible: nothing is dropped silently.
    const show = await cli(['show', sessionId, home]);
    expect(show.stdout).toMatch(/▶ run the PWNED tests ␛\[2J␛\[H␛\]0;PWNED␇�31m ␈␀␡�� please/);
    const stats = await cli(['stats', home]);
    expect(stats.stdout).toMatch(/Evil␛\[2J␛\[H␛\]0;PWNED␇�31m ␈␀␡��Tool/);
  });

  it('with colour: the only escapes are the CLI’s own colours', async () => {
    for (const command of commands) {
      const r = await cli(argsOf(command), { FORCE_COLOR: '1' });
      expect(r.code, r.stderr).toBe(0);
      expect([command.join(' '), controlsIn(r.stdout.replace(SGR, '')), controlsIn(r.stderr.replace(SGR, ''))]).toEqual(
        [command.join(' '), [], []],
      );
    }
    const sessions = await cli(['sessions', home], { FORCE_COLOR: '1' });
    expect(sessions.stdout.startsWith('\u001b[1mSESSION')).toBe(true);
  });

  it('--json keeps the text exactly as written', async () => {
    const r = await cli(['sessions', home, '--json']);
    const [session] = (JSON.parse(r.stdout) as SessionsJson).sessions;
    expect([session?.title, session?.projectPath]).toEqual([`PWNED title ${EVIL}`, `/home/user/evil${EVIL}dir`]);
  });
});

describe('terminalText', () => {
  it('shows each control as one visible character, so a cut never splits an escape', () => {
    expect(terminalText(`a\tb\nc\r\n${EVIL}`)).toBe('a b c  ␛[2J␛[H␛]0;PWNED␇�31m ␈␀␡��');
    expect(terminalText(EVIL).length).toBe(EVIL.length);
    expect(terminalText('plain ✓ text é')).toBe('plain ✓ text é');
  });
});
