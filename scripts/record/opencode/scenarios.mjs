// The scenarios recorded for OpenCode: what the scripted model "decides", step by step, and the files each project
// starts with. A call with `expectError` is one the script means to fail (or a shell command meant to exit non-zero).

const bash = (command, expectError = false) => ({
  name: 'bash',
  args: { command, description: `Run ${command.split(' ')[0]}` },
  expectError,
});
const read = (filePath, expectError = false) => ({ name: 'read', args: { filePath }, expectError });

/** The tool the client offers whose name ends with `suffix` (OpenCode names MCP tools `<server>_<tool>`). */
const offered = (body, suffix) =>
  (body.tools ?? []).map((t) => t.function?.name).find((n) => typeof n === 'string' && n.endsWith(suffix)) ??
  `missing-${suffix}`;

/** @type {{ name: string, files?: Record<string, string>, runs: { prompt: string, steps: unknown[], resume?: boolean }[], mcp?: boolean }[]} */
export const scenarios = [
  {
    name: 'files',
    files: { 'notes.md': '# Notes\nhello world\nsecond line\n', 'app.js': 'const greeting = "hello";\n' },
    runs: [
      {
        prompt: 'Create a file, read, search and edit the project.',
        steps: [
          { calls: [{ name: 'write', args: { filePath: '{dir}/new.txt', content: 'alpha\nbeta\n' } }] },
          { calls: [read('{dir}/notes.md')] },
          { calls: [{ name: 'glob', args: { pattern: '*.md' } }] },
          { calls: [{ name: 'grep', args: { pattern: 'hello' } }] },
          { calls: [read('{dir}/app.js')] },
          { calls: [{ name: 'edit', args: { filePath: '{dir}/app.js', oldString: '"hello"', newString: '"hi"' } }] },
          {
            calls: [
              {
                name: 'edit',
                args: { filePath: '{dir}/app.js', oldString: 'no such text', newString: 'x' },
                expectError: true,
              },
            ],
          },
          { calls: [read('{dir}/missing.js', true)] },
          { text: 'Wrote new.txt, found hello, one edit applied and one failed; missing.js does not exist.' },
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
          { text: 'Ran four commands; two failed (grep finding nothing is an answer).' },
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
        steps: [{ calls: [read('{dir}/a.txt'), read('{dir}/b.txt'), bash('cat c.txt')] }, { text: 'A, B and C.' }],
      },
    ],
  },
  {
    // The task tool runs a subagent in a child session (its own session row, `parent_id` the caller's).
    name: 'subagent',
    files: { 'sub.txt': 'inside\n' },
    runs: [
      {
        prompt: 'Delegate a look at sub.txt.',
        steps: [
          {
            calls: [
              {
                name: 'task',
                args: { description: 'Look at sub.txt', prompt: 'Print sub.txt.', subagent_type: 'general' },
              },
            ],
          },
          { calls: [bash('cat sub.txt')] },
          { text: 'sub.txt holds "inside".' },
          { text: 'The subagent found "inside".' },
        ],
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
        steps: [{ calls: [read('{dir}/todo.txt')] }, { text: 'Resumed.' }],
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
            calls: [bash(`echo step-${i}-a`), read('{dir}/f.txt'), bash(`echo step-${i}-c`), bash(`echo step-${i}-d`)],
          })),
          { text: 'All hundred done.' },
        ],
      },
    ],
  },
];
