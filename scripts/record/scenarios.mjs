// The scenarios every recorder runs (issue 37), once: what the scripted model "decides", step by step, and the files
// each project starts with, written in a client's own tool vocabulary. A client's scenarios.mjs only names its tools
// (`scenariosFor({ shell, read, … })`); what differs between clients is a hook of the vocabulary, never a copied
// scenario. A call with `expectError` is one the script means to fail (or a shell command meant to exit non-zero).

/**
 * @typedef {{ name: string, args: Record<string, unknown> }} Call
 * @typedef {{
 *   shell: (command: string) => Call,
 *   read: (path: string) => Call,
 *   write: (path: string, content: string) => Call,
 *   edit: (path: string, oldText: string, newText: string) => Call,
 *   glob: (pattern: string) => Call,
 *   grep: (pattern: string) => Call,
 *   task?: (description: string, prompt: string) => Call,
 *   plan?: (steps: { step: string, status: 'pending' | 'in_progress' | 'completed' }[]) => Call,
 *   mcp: (body: any, tool: 'echo' | 'fail') => string,
 *   readBeforeEdit?: boolean,
 *   longRounds?: number,
 * }} Vocabulary
 * @typedef {{ name: string, files?: Record<string, string>, mcp?: boolean,
 *   runs: { prompt: string, steps: unknown[], resume?: boolean }[] }} Scenario
 */

const failing = (call) => ({ ...call, expectError: true });

/** The name of the tool the client offers (OpenAI tools or Messages tools) whose name ends with `suffix`. */
export const offered = (body, suffix) =>
  (body.tools ?? []).map((t) => t.function?.name ?? t.name).find((n) => typeof n === 'string' && n.endsWith(suffix)) ??
  `missing-${suffix}`;

/** The scenarios in one client's vocabulary. */
export function scenariosFor(v) {
  /** @type {Scenario[]} */
  const all = [
    {
      name: 'files',
      files: { 'notes.md': '# Notes\nhello world\nsecond line\n' },
      runs: [
        {
          prompt: 'Create a file, read it and search the project.',
          steps: [
            { calls: [v.write('{dir}/new.txt', 'alpha\nbeta\n')] },
            { calls: [v.read('{dir}/notes.md')] },
            { calls: [v.glob('*.md')] },
            { calls: [v.grep('hello')] },
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
            { calls: [v.shell('echo ok && wc -l data.txt')] },
            { calls: [failing(v.shell('ls /nonexistent-dir-for-recording'))] },
            { calls: [v.shell('grep zzz data.txt')] },
            { calls: [failing(v.shell('exit 3'))] },
            { text: 'Ran four commands; two failed (grep finding nothing is an answer).' },
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
            ...(v.readBeforeEdit ? [{ calls: [v.read('{dir}/app.js')] }] : []),
            { calls: [v.edit('{dir}/app.js', '"hello"', '"hello, world"')] },
            { calls: [failing(v.edit('{dir}/app.js', 'no such text', 'x'))] },
            { calls: [failing(v.read('{dir}/missing.js'))] },
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
          steps: [
            { calls: [v.read('{dir}/a.txt'), v.read('{dir}/b.txt'), v.shell('cat c.txt')] },
            { text: 'A, B and C.' },
          ],
        },
      ],
    },
    // A subagent: the caller's request, the subagent's two, then the caller's answer (requests are sequential).
    ...(v.task === undefined
      ? []
      : [
          {
            name: 'subagent',
            files: { 'sub.txt': 'inside\n' },
            runs: [
              {
                prompt: 'Delegate a look at sub.txt.',
                steps: [
                  { calls: [v.task('Look at sub.txt', 'Print sub.txt.')] },
                  { calls: [v.shell('cat sub.txt')] },
                  { text: 'sub.txt holds "inside".' },
                  { text: 'The subagent found "inside".' },
                ],
              },
            ],
          },
        ]),
    // A plan the agent keeps (Codex's update_plan), then the work it planned.
    ...(v.plan === undefined
      ? []
      : [
          {
            name: 'plan',
            runs: [
              {
                prompt: 'Plan the work, then do it.',
                steps: [
                  {
                    calls: [
                      v.plan([
                        { step: 'Write the file', status: 'in_progress' },
                        { step: 'Check it', status: 'pending' },
                      ]),
                    ],
                  },
                  { calls: [v.shell('printf "done\\n" > out.txt && cat out.txt')] },
                  { text: 'Planned and wrote out.txt.' },
                ],
              },
            ],
          },
        ]),
    {
      name: 'mcp',
      mcp: true,
      runs: [
        {
          prompt: 'Use the rec MCP server.',
          steps: [
            (body) => ({ calls: [{ name: v.mcp(body, 'echo'), args: { text: 'hi' } }] }),
            (body) => ({ calls: [{ name: v.mcp(body, 'fail'), args: { why: 'scripted' }, expectError: true }] }),
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
            { calls: [v.shell('echo after-retry')] },
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
        { prompt: 'First turn.', steps: [{ calls: [v.shell('echo first')] }, { text: 'First turn done.' }] },
        {
          prompt: 'Second turn, resumed.',
          resume: true,
          steps: [{ calls: [v.read('{dir}/todo.txt')] }, { text: 'Resumed.' }],
        },
      ],
    },
    {
      name: 'long',
      files: { 'f.txt': 'x\n' },
      runs: [
        {
          prompt: `Do ${(v.longRounds ?? 25) * 4} small things.`,
          steps: [
            ...Array.from({ length: v.longRounds ?? 25 }, (_, i) => ({
              calls: [
                v.shell(`echo step-${i}-a`),
                v.read('{dir}/f.txt'),
                v.shell(`echo step-${i}-c`),
                v.shell(`echo step-${i}-d`),
              ],
            })),
            { text: 'All done.' },
          ],
        },
      ],
    },
  ];
  return all;
}
