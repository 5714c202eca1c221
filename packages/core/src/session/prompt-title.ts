import type { UserRecord } from '../model/record.js';
import { commandLine } from '../present/notes.js';
import { characterCut } from '../present/text.js';
import { findSecrets } from '../secrets/scan.js';
import { hiddenReasonOf, userText } from './classify-user.js';

/** Longest first-prompt title, in characters (longer ones end in `…`). */
export const MAX_PROMPT_TITLE = 200;

/** More than the longest secret a rule matches (a PEM private key block of a 4096-bit RSA key is about 3.3 KB). */
const LONGEST_SECRET = 16 * 1024;

/**
 * `text` cut to at most `max` characters, ending in `…` when cut. The cut never keeps part of a secret: a secret cut
 * short no longer matches its rule, so exports would not redact what is left of it. Any secret the cut would go
 * through is dropped (one of several words too: a private key block, a quoted password). The partial last word is
 * dropped when a space ends the word within `WORD_ROOM` characters; else (text without spaces, a long URL) the cut is
 * where it must be, never inside a character.
 * @example cutTitle(`${'x'.repeat(170)} https://admin:S3cretPassw0rdLong@db.example.com`) // 'xxx…xxx …'
 */
export function cutTitle(text: string, max: number = MAX_PROMPT_TITLE): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  // Before every secret the cut would go through, found in the uncut text (a cut one no longer matches). Only the
  // text up to the cut and a secret's length past it matters: a long pasted log is not scanned whole for a title.
  const secrets = findSecrets(text.slice(0, max + LONGEST_SECRET));
  for (let moved = true; moved; ) {
    moved = false;
    for (const s of secrets) {
      if (s.start < cut && cut < s.end) {
        cut = s.start;
        moved = true;
      }
    }
  }
  // At a word boundary: the partial last word is dropped, unless it is the only word, or the last space is far back
  // (Chinese and Japanese write no spaces between words: `修复 这是…` was titled `修复…`).
  if (!/\s/.test(text[cut] ?? ' ')) {
    const space = text.slice(0, cut).search(/\s\S*$/);
    if (space > 0 && cut - space <= WORD_ROOM) cut = space;
  }
  // Never inside a character: a surrogate pair, a letter and its marks, an emoji sequence (the title of a prompt of
  // emoji ended in half of one).
  cut = characterCut(text, cut);
  return `${text.slice(0, cut).trimEnd()}…`;
}

/** How far back from the cut a title looks for a space to end at: about the longest word of a language with spaces. */
const WORD_ROOM = 30;

/**
 * Built-in client commands that control the session rather than ask for work (`/clear`, `/model`, `/context`,
 * `/ide`, …): a session that starts with one is titled by the prompt after it. Custom and task commands
 * (`/init`, `/review`, `/erk:plan-implement`) still title a session.
 */
export const sessionControlCommands = [
  'add-dir',
  'agents',
  'bashes',
  'bug',
  'clear',
  'compact',
  'config',
  'context',
  'cost',
  'doctor',
  'exit',
  'export',
  'help',
  'hooks',
  'ide',
  'login',
  'logout',
  'mcp',
  'memory',
  'model',
  'output-style',
  'permissions',
  'plugin',
  'privacy-settings',
  'quit',
  'release-notes',
  'reset',
  'resume',
  'rewind',
  'status',
  'statusline',
  'terminal-setup',
  'theme',
  'todos',
  'upgrade',
  'usage',
  'vim',
] as const;
const controlCommands: ReadonlySet<string> = new Set(sessionControlCommands);

/** IDE notices the VS Code / JetBrains extensions put before (or instead of) the typed prompt. */
const IDE_NOTICE = /^\s*<(ide_[a-z_]+)>[\s\S]*?<\/\1>\s*/;

/**
 * The title a user record gives its session when the first prompt becomes the title, or undefined when it gives
 * none: meta, command output, interrupts, notifications, session-control commands and bare IDE notices are
 * skipped; a custom slash command gives its `/name args` line; IDE notices before a typed prompt are dropped.
 * The one rule for core's `loadSession` and the index.
 * @example promptTitleOf(firstUserRecord) // 'Fix the failing test in src/a.ts'
 */
export function promptTitleOf(record: UserRecord): string | undefined {
  if (record.isSidechain) return undefined;
  const reason = hiddenReasonOf(record);
  let text: string;
  if (reason === 'command') text = commandLine(userText(record.content));
  else if (reason === undefined) text = withoutMarkdownBlocks(withoutIdeNotices(userText(record.content)));
  else return undefined;
  text = text.trim();
  if (text === '' || isControlCommand(text)) return undefined;
  return cutTitle(text);
}

/**
 * The title a subagent's prompt gives a session whose main file gives none (`SessionSummary.addThreadPrompt`): its
 * text (`threadPromptOf` of a record the timeline shows as a prompt) as a first prompt is cut into a title. The one
 * rule for a loaded session and the index (which keeps that text as `records.prompt_text`).
 */
export function threadTitleOf(text: string): string | undefined {
  const cleaned = withoutMarkdownBlocks(withoutIdeNotices(text)).trim();
  if (cleaned === '' || isControlCommand(cleaned)) return undefined;
  return cutTitle(cleaned);
}

/** A code fence's line (```` ```text ````, `~~~`), and a heading's marks (`## `). */
const FENCE_LINE = /^[ \t]*(?:`{3,}|~{3,})[^\n`]*(?:\n|$)/gm;
const HEADING_MARKS = /^[ \t]{0,3}#{1,6}[ \t]+/gm;

/**
 * The prompt without Markdown's block marks: a prompt template (Codex `/prompts:…`, spec-kit's `## User Input`
 * then the arguments in a ```` ```text ```` fence) titled its session with the raw fence and heading marks.
 * @example withoutMarkdownBlocks('## User Input\n\n```text\nA blazor site\n```') // 'User Input\n\nA blazor site\n'
 */
export function withoutMarkdownBlocks(text: string): string {
  return text
    .replace(FENCE_LINE, '')
    .replace(HEADING_MARKS, '')
    .replace(/\n{3,}/g, '\n\n');
}

function withoutIdeNotices(text: string): string {
  let rest = text;
  for (let match = IDE_NOTICE.exec(rest); match !== null; match = IDE_NOTICE.exec(rest)) {
    rest = rest.slice(match[0].length);
  }
  return rest;
}

function isControlCommand(text: string): boolean {
  const name = /^\/([\w:-]+)/.exec(text)?.[1];
  return name !== undefined && controlCommands.has(name);
}
