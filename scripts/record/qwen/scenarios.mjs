// The scenarios recorded for Qwen Code: what the scripted model "decides", step by step, and the files each project
// starts with. A call with `expectError` is one the script means to fail (or a shell command meant to exit non-zero).

const shell = (command, expectError = false) => ({
  name: 'run_shell_command',
  args: { command, description: `Run ${command.split(' ')[0]}` },
  expectError,
});
const read = (file_path, expectError = false) => ({ name: 'read_file', args: { file_path }, expectError });

/** @type {{ name: string, files?: Record<string, string>, runs: { prompt: string, steps: unknown[], resume?: boolean }[], mcp?: boolean }[]} */
export const scenarios = [
  {
    name: 'files',
    files: { 'notes.md': '# Notes\nhello world\nsecond line\n', 'app.js': 'const greeting = "hello";\n' },
    runs: [
      {
        prompt: 'Create a file, read, search and edit the project.',
        steps: [
          { calls: [{ name: 'write_file', args: { file_path: '{dir}/new.txt', content: 'alpha\nbeta\n' } }] },
          { calls: [read('{dir}/notes.md')] },
          { calls: [{ name: 'glob', args: { pattern: '*.md' } }] },
          { calls: [{ name: 'grep_search', args: { pattern: 'hello' } }] },
          {
            calls: [{ name: 'edit', args: { file_path: '{dir}/app.js', old_string: '"hello"', new_string: '"hi"' } }],
          },
          {
            calls: [
              {
                name: 'edit',
                args: { file_path: '{dir}/app.js', old_string: 'no such text', new_string: 'x' },
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
          { calls: [shell('echo ok && wc -l data.txt')] },
          { calls: [shell('ls /nonexistent-dir-for-recording', true)] },
          { calls: [shell('grep zzz data.txt')] },
          { calls: [shell('exit 3', true)] },
          { text: 'Ran four commands; two failed.' },
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
        steps: [{ calls: [read('{dir}/a.txt'), read('{dir}/b.txt'), shell('cat c.txt')] }, { text: 'A, B and C.' }],
      },
    ],
  },
  {
    // Qwen Code defers MCP tools (not in the request's tools, found through tool_search), but runs one called by
    // its name, `mcp__<server>__<tool>`.
    name: 'mcp',
    mcp: true,
    runs: [
      {
        prompt: 'Use the rec MCP server.',
        steps: [
          { calls: [{ name: 'mcp__rec__echo', args: { text: 'hi' } }] },
          { calls: [{ name: 'mcp__rec__fail', args: { why: 'scripted' }, expectError: true }] },
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
          { calls: [shell('echo after-retry')] },
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
      { prompt: 'First turn.', steps: [{ calls: [shell('echo first')] }, { text: 'First turn done.' }] },
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
        prompt: 'Do thirty-two small things.',
        steps: [
          ...Array.from({ length: 8 }, (_, i) => ({
            calls: [
              shell(`echo step-${i}-a`),
              read('{dir}/f.txt'),
              shell(`echo step-${i}-c`),
              shell(`echo step-${i}-d`),
            ],
          })),
          { text: 'All thirty-two done.' },
        ],
      },
    ],
  },
];
