// The scenarios recorded for Codex CLI with its OpenTelemetry export on (issue 34): what the scripted model
// "decides", step by step, and the files each project starts with. A call with `expectError` is one the script
// means to fail (a command that exits non-zero).

const exec = (cmd, expectError = false) => ({ name: 'exec_command', args: { cmd }, expectError });

/** @type {{ name: string, files?: Record<string, string>, runs: { prompt: string, steps: unknown[], resume?: boolean }[] }[]} */
export const scenarios = [
  { name: 'probe', runs: [{ prompt: 'Say hello.', steps: [{ text: 'Hello.' }] }] },
  {
    name: 'shell',
    files: { 'data.txt': 'one\ntwo\n', 'README.md': '# Shell\n' },
    runs: [
      {
        prompt: 'Run a few shell commands.',
        steps: [
          { text: 'Looking first.', calls: [exec('ls')] },
          { calls: [exec('cat README.md && wc -l data.txt')] },
          { calls: [exec('ls /nonexistent-dir-for-recording', true)] },
          { calls: [exec('exit 3', true)] },
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
        prompt: 'Read the three files at once.',
        steps: [{ calls: [exec('cat a.txt'), exec('cat b.txt'), exec('cat c.txt')] }, { text: 'A, B and C.' }],
      },
    ],
  },
  {
    name: 'plan',
    runs: [
      {
        prompt: 'Plan the work, then do it.',
        steps: [
          {
            calls: [
              {
                name: 'update_plan',
                args: {
                  plan: [
                    { step: 'Write the file', status: 'in_progress' },
                    { step: 'Check it', status: 'pending' },
                  ],
                },
              },
            ],
          },
          { calls: [exec('printf "done\\n" > out.txt && cat out.txt')] },
          { text: 'Planned and wrote out.txt.' },
        ],
      },
    ],
  },
  {
    name: 'api-errors',
    files: { 'notes.md': '# Notes\n' },
    runs: [
      {
        prompt: 'Read the notes despite a flaky API.',
        steps: [
          { status: 500 },
          { calls: [exec('cat notes.md')] },
          { status: 503 },
          { text: 'The notes hold a title.' },
        ],
      },
    ],
  },
  {
    name: 'multi',
    files: { 'count.txt': '1\n' },
    runs: [
      { prompt: 'Show the count.', steps: [{ calls: [exec('cat count.txt')] }, { text: 'It is 1.' }] },
      {
        prompt: 'Now add one.',
        resume: true,
        steps: [{ calls: [exec('echo 2 > count.txt && cat count.txt')] }, { text: 'It is 2.' }],
      },
    ],
  },
];
