// The scenarios recorded for GitHub Copilot CLI: what the scripted model "decides", step by step, and the files
// each project starts with. A call with `expectError` is one the script means to fail.

const bash = (command, expectError = false) => ({
  name: 'bash',
  args: { command, description: `Run ${command.split(' ')[0]}` },
  expectError,
});
const view = (path, expectError = false) => ({ name: 'view', args: { path }, expectError });

/** The tool the client offers whose name ends with `suffix` (MCP tools are named by the client). */
const offered = (body, suffix) =>
  (body.tools ?? []).map((t) => t.function?.name).find((n) => typeof n === 'string' && n.endsWith(suffix)) ??
  `missing-${suffix}`;

/** @type {{ name: string, files?: Record<string, string>, runs: { prompt: string, steps: unknown[] }[], mcp?: boolean }[]} */
export const scenarios = [
  {
    name: 'files',
    files: { 'notes.md': '# Notes\nhello world\nsecond line\n' },
    runs: [
      {
        prompt: 'Create a file, read it and search the project.',
        steps: [
          { calls: [{ name: 'create', args: { path: '{dir}/new.txt', file_text: 'alpha\nbeta\n' } }] },
          { calls: [view('{dir}/notes.md')] },
          { calls: [{ name: 'glob', args: { pattern: '*.md' } }] },
          { calls: [{ name: 'grep', args: { pattern: 'hello', output_mode: 'content', '-n': true } }] },
          { text: 'Created new.txt and found hello in notes.md.' },
        ],
      },
    ],
  },
  {
    name: 'shell',
    files: { 'data.txt': 'one\ntwo\n' },
    runs: [
      {
        prompt: 'Run a few shell commands.',
        steps: [
          { calls: [bash('echo ok && wc -l data.txt')] },
          { calls: [bash('ls /nonexistent-dir-for-recording', true)] },
          { calls: [bash('grep zzz data.txt')] },
          { calls: [bash('exit 3', true)] },
          { text: 'Ran four commands; two failed.' },
        ],
      },
    ],
  },
  {
    name: 'edit',
    files: { 'app.js': 'const greeting = "hello";\nconsole.log(greeting);\n' },
    runs: [
      {
        prompt: 'Edit app.js.',
        steps: [
          { calls: [{ name: 'edit', args: { path: '{dir}/app.js', old_str: '"hello"', new_str: '"hello, world"' } }] },
          {
            calls: [
              {
                name: 'edit',
                args: { path: '{dir}/app.js', old_str: 'no such text', new_str: 'x' },
                expectError: true,
              },
            ],
          },
          { calls: [view('{dir}/missing.js', true)] },
          { text: 'One edit applied, one failed, and missing.js does not exist.' },
        ],
      },
    ],
  },
  {
    name: 'parallel',
    files: { 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'C\n' },
    runs: [
      {
        prompt: 'Read three files at once.',
        steps: [{ calls: [view('{dir}/a.txt'), view('{dir}/b.txt'), bash('cat c.txt')] }, { text: 'A, B and C.' }],
      },
    ],
  },
  {
    name: 'mcp',
    mcp: true,
    runs: [
      {
        prompt: 'Use the rec MCP server.',
        steps: [
          (body) => ({ calls: [{ name: offered(body, 'echo'), args: { text: 'hi' } }] }),
          (body) => ({ calls: [{ name: offered(body, 'fail'), args: { why: 'scripted' }, expectError: true }] }),
          { text: 'Echoed hi; fail failed.' },
        ],
      },
    ],
  },
  {
    name: 'api-error',
    runs: [
      {
        prompt: 'Survive a server error.',
        steps: [
          { status: 500 },
          { calls: [bash('echo after-retry')] },
          { status: 500 },
          { text: 'Done after retries.' },
        ],
      },
    ],
  },
  {
    name: 'resume',
    files: { 'todo.txt': 'buy milk\n' },
    runs: [
      { prompt: 'First turn.', steps: [{ calls: [bash('echo first')] }, { text: 'First turn done.' }] },
      {
        prompt: 'Second turn, resumed.',
        resume: true,
        steps: [{ calls: [view('{dir}/todo.txt')] }, { text: 'Resumed.' }],
      },
    ],
  },
  {
    name: 'long',
    files: { 'f.txt': 'x\n' },
    runs: [
      {
        prompt: 'Do a hundred small things.',
        steps: [
          ...Array.from({ length: 25 }, (_, i) => ({
            calls: [bash(`echo step-${i}-a`), bash(`echo step-${i}-b`), view('{dir}/f.txt'), bash(`echo step-${i}-d`)],
          })),
          { text: 'All hundred done.' },
        ],
      },
    ],
  },
];
