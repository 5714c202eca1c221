import { describe, expect, it } from 'vitest';
import { RawLines, redactLine } from './raw-lines.js';

const redactAll = (text: string) => {
  const lines = new RawLines();
  return text
    .split('\n')
    .map((line) => lines.redact(line))
    .join('\n');
};
const rulesAll = (text: string) => {
  const lines = new RawLines();
  return text.split('\n').map((line) => lines.rules(line));
};

// A session file of Gemini CLI 0.20: one JSON document, pretty-printed over lines (none of them JSON alone).
const geminiDocument = JSON.stringify(
  {
    sessionId: 'b58d1bb9',
    messages: [
      { type: 'user', content: 'connect with password="GEMprompt55Zz" please' },
      { type: 'gemini', toolCalls: [{ name: 'run_shell_command', result: 'DB_PASSWORD="GEMdbpw1234Xq"\nHOST=db' }] },
      { type: 'gemini', toolCalls: [{ name: 'read_file', result: '{"password": "GEMjsonpw9Zq8", "host": "db"}' }] },
    ],
  },
  null,
  2,
);

// Aider's Markdown history: a key a tool printed, over lines of its own, quoted.
const key = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACBkZXZpY2VrZXlkZXZpY2VrZXlkZXZpY2VrZXlkZXZpAAAAmBQ8vO8UPLzv',
  'AAAAC3NzaC1lZDI1NTE5AAAAIGRldmljZWtleWRldmljZWtleWRldmljZWtleWRldmk=',
  '-----END OPENSSH PRIVATE KEY-----',
];
const aiderHistory = [
  '#### show me the deploy key',
  '',
  ...key.map((line) => `> ${line}`),
  '',
  'That is the key the deploy script reads.',
].join('\n');

describe('RawLines: a file read a line at a time', () => {
  it("finds and redacts a JSON document's secrets that escaping hides, the document still JSON", () => {
    const sent = redactAll(geminiDocument);
    for (const secret of ['GEMprompt55Zz', 'GEMdbpw1234Xq', 'GEMjsonpw9Zq8']) expect(sent).not.toContain(secret);
    const parsed = JSON.parse(sent) as { messages: { content?: string; toolCalls?: { result: string }[] }[] };
    expect(parsed.messages[0]?.content).toMatch(/^connect with password="\[REDACTED:[a-z-]+\]" please$/);
    expect(parsed.messages[1]?.toolCalls?.[0]?.result).toContain('HOST=db');
    // each line with a secret names its rule
    const found = rulesAll(geminiDocument);
    expect(found.filter((rules) => rules.length > 0)).toHaveLength(3);
  });

  it("redacts a private key's lines to its END line, its quoting kept, and what follows as it was", () => {
    const sent = redactAll(aiderHistory).split('\n');
    expect(sent.slice(2, 7)).toEqual(Array(5).fill('> [REDACTED:private-key]'));
    expect(sent.slice(0, 2)).toEqual(['#### show me the deploy key', '']);
    expect(sent.slice(7)).toEqual(['', 'That is the key the deploy script reads.']);
    // found once, on its BEGIN line
    expect(rulesAll(aiderHistory).flatMap((rules, line) => rules.map((rule) => `${line} ${rule}`))).toEqual([
      '2 private-key',
    ]);
  });

  it('ends a key without its END line at the first line that is not a body line', () => {
    const text = [key[0], key[1], '{"type":"user","message":"next record"}', key[2]].join('\n');
    expect(redactAll(text).split('\n')).toEqual([
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '{"type":"user","message":"next record"}',
      key[2],
    ]);
  });

  it('leaves a line without secrets as it is, and a JSON Lines record JSON', () => {
    const plain = '{"type":"user","message":{"content":"token count: 12","n":1.0}}';
    expect(redactLine(plain)).toBe(plain);
    const record = JSON.stringify({ toolUseResult: { stdout: 'DB_PASSWORD=Qw8zKp7x9Lm2\n' } });
    const sent = redactLine(record);
    expect(sent).not.toContain('Qw8zKp7x9Lm2');
    expect(() => JSON.parse(sent)).not.toThrow();
  });

  it("keeps a `$` of the text as it is, and a document JSON when a rule's value would meet an escape", () => {
    // String.replace read `$&` as the matched text: the secret came back
    const dollar = '    "text": "PGPASSWORD=\\"Hunter2Xy9Zq\\" psql; sed s/a/$&/ $$",';
    const sent = redactLine(dollar);
    expect(sent).not.toContain('Hunter2Xy9Zq');
    expect(sent).toContain('sed s/a/$&/ $$');
    // `export TOKEN=short` then an escaped quote: the text pass took the backslash into the value, ending the string
    const doc = JSON.stringify({ text: 'Run:\nexport TOKEN=short\n"quoted" done' }, null, 2);
    expect(JSON.parse(redactAll(doc))).toEqual(JSON.parse(doc));
  });

  it('reads a long line of escapes in one pass (a pattern backtracked for seconds), and a key under line numbers', () => {
    const escapes = `token "${'\\"'.repeat(50_000)}`;
    expect(redactLine(escapes)).toBe(escapes);
    const numbered = [
      `     1\t${key[0]}`,
      ...key.slice(1, 4).map((l, i) => `     ${i + 2}\t${l}`),
      `     5\t${key[4]}`,
    ];
    const sent = redactAll(numbered.join('\n'));
    for (const line of key.slice(1, 4)) expect(sent).not.toContain(line);
    const diff = redactAll(['-' + key[0], ...key.slice(1, 4).map((l) => `-${l}`), `-${key[4]}`].join('\n'));
    for (const line of key.slice(1, 4)) expect(diff).not.toContain(line);
  });
});
