// The scenarios recorded for Gemini CLI with its OpenTelemetry export on (issue 34): what the scripted model
// "decides", step by step (the client's own side requests, such as its model router, are answered apart and take no
// step), and the files each project starts with. A call with `expectError` is one the script means to fail.

const shell = (command, expectError = false) => ({
  name: 'run_shell_command',
  args: { command, description: `Run ${command.split(' ')[0]}` },
  expectError,
});
const read = (file_path, expectError = false) => ({ name: 'read_file', args: { file_path }, expectError });

/** @type {{ name: string, files?: Record<string, string>, runs: { prompt: string, steps: unknown[], resume?: boolean }[] }[]} */
export const scenarios = [
  { name: 'probe', runs: [{ prompt: 'Say hello.', steps: [{ text: 'Hello.' }] }] },
  {
    name: 'files',
    files: { 'notes.md': '# Notes\nhello world\n', 'app.js': 'const greeting = "hello";\n' },
    runs: [
      {
        prompt: 'Look around, read, search and edit the project.',
        steps: [
          { text: 'Listing first.', calls: [{ name: 'list_directory', args: { dir_path: '{dir}' } }] },
          { calls: [read('{dir}/notes.md')] },
          { calls: [{ name: 'grep_search', args: { pattern: 'hello' } }] },
          { calls: [{ name: 'write_file', args: { file_path: '{dir}/new.txt', content: 'alpha\n' } }] },
          { calls: [read('{dir}/missing.js', true)] },
          { text: 'Read, searched and wrote new.txt; missing.js does not exist.' },
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
          { calls: [shell('exit 3', true)] },
          { text: 'Ran three commands; two failed.' },
        ],
      },
    ],
  },
  {
    name: 'parallel',
    files: { 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'C\n' },
    runs: [
      {
        prompt: 'Read the three files at once.',
        steps: [{ calls: [read('{dir}/a.txt'), read('{dir}/b.txt'), read('{dir}/c.txt')] }, { text: 'A, B and C.' }],
      },
    ],
  },
  {
    name: 'api-errors',
    files: { 'notes.md': '# Notes\n' },
    runs: [
      {
        prompt: 'Read the notes despite a flaky API.',
        steps: [{ status: 500 }, { calls: [read('{dir}/notes.md')] }, { status: 503 }, { text: 'A title.' }],
      },
    ],
  },
  {
    name: 'multi',
    files: { 'count.txt': '1\n' },
    runs: [
      { prompt: 'Show the count.', steps: [{ calls: [read('{dir}/count.txt')] }, { text: 'It is 1.' }] },
      {
        prompt: 'Now add one.',
        resume: true,
        steps: [{ calls: [shell('echo 2 > count.txt && cat count.txt')] }, { text: 'It is 2.' }],
      },
    ],
  },
];
