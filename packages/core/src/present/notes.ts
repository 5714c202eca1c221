import { plainText } from './plain-text.js';

/** The words of the notes a timeline shows: a system record's subtype, a hidden user message's reason, an attachment's. */
const NOTE_LABELS: Readonly<Record<string, string>> = {
  'compact-summary': 'Conversation compacted',
  compact_boundary: 'Context compacted',
  command: 'Command',
  'command-output': 'Command output',
  interrupt: 'Interrupted by user',
  'task-notification': 'Background task',
  api_error: 'API error',
  'queued-prompt': 'Message sent while the agent worked',
  interjection: 'Message sent while the agent worked',
  'tool-image': 'Image the tool attached',
  hook_system_message: 'Hook message',
  hook_blocking_error: 'Hook blocked',
  hook_non_blocking_error: 'Hook error',
};

/** A note's label: its words when known, else its subtype or reason with spaces for `_` and `-`. */
export function noteLabel(label: string): string {
  return NOTE_LABELS[label] ?? label.replace(/[_-]/g, ' ');
}

/** `/name args` of a slash-command message (`<command-name>` and `<command-args>` tags). */
export function commandLine(text: string): string {
  const name = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1]?.trim() ?? '';
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
  return `${name} ${args}`.trim();
}

/** The tags of a slash command's message that its command line (`commandLine`) says all of. */
const COMMAND_TAGS = /<(command-name|command-message|command-args)>[^<]*<\/\1>\n?/g;

/**
 * A client note's text as read, wherever it is shown (the timeline, find, search, `show`, the exports): terminal
 * control text out (`plainText`), a slash command as it was typed (`/goal simplify this repo`: its name and arguments,
 * its status words such as `hello is running…` left out), `<field>value</field>` pairs (a task notification's id,
 * status, output file) as `field: value` lines, the other tags of a pair dropped; a tag never closed in the note
 * (`<img src=x>`, `Array<string>`), HTML's (`<b>x</b>`, an error's web page) and `a < b` are text, kept.
 * @example noteFields('<command-name>/compact</command-name>') // '/compact'
 */
export function noteFields(raw: string): string {
  const text = plainText(raw);
  if (!text.includes('<command-name>')) return fields(text);
  return [commandLine(text), fields(text.replace(COMMAND_TAGS, ''))].filter((part) => part !== '').join('\n');
}

/**
 * Elements of web pages and formatted text: an API error's HTML page (a gateway's 502), `<b>` in a message. Never a
 * client's field (those are `task-id`, `status`, `summary`, `output-file`, …), so their tags stay text as written.
 */
const HTML_TAGS = new Set(
  (
    'a abbr b body br center code del div em font h1 h2 h3 h4 h5 h6 head hr html i img ins kbd li link meta ol p pre ' +
    's script small span strong style sub sup table tbody td th thead title tr tt u ul'
  ).split(' '),
);

function fields(raw: string): string {
  // the names of the tags closed somewhere in the note: their tags are structure, any other is text (and HTML's)
  const closed = new Set(
    Array.from(raw.matchAll(/<\/([A-Za-z][\w-]*)\s*>/g), (m) => m[1]).filter(
      (name) => name !== undefined && !HTML_TAGS.has(name.toLowerCase()),
    ),
  );
  return (
    raw
      // what a slash command printed, as it printed it (its lines' own indentation aside)
      .replace(/<local-command-stdout>([\s\S]*?)<\/local-command-stdout>/g, '$1')
      .replace(/<([\w-]+)>([^<]*)<\/\1>\n?/g, (pair, field: string, value: string) =>
        closed.has(field) ? `${field.replace(/[-_]/g, ' ')}: ${value.trim()}\n` : pair,
      )
      // Other tags of a pair (an opening one, a closing one, one around other tags); `a < b` and `c > d` are text.
      .replace(/<\/?([A-Za-z][\w-]*)(?:\s[^<>]*)?\/?>/g, (tag, name: string) => (closed.has(name) ? '\n' : tag))
      .split('\n')
      .map((line) => line.trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
