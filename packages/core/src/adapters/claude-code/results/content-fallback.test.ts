import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../../../model/typed-result.js';
import { canonicalToolName } from '../tool-names.js';
import { typeToolResult } from './type-result.js';

/** Results without toolUseResult (resumed/forked copies, parallel results): typed from the content alone. */
function fromContent(name: string, content: string, input: unknown = {}): TypedResult {
  return typeToolResult({
    name,
    canonicalName: canonicalToolName(name),
    input,
    content,
    toolUseResult: undefined,
    isError: false,
  }).typed;
}

describe('typing from the content string (no toolUseResult)', () => {
  const cases: [string, string, unknown, unknown][] = [
    [
      'Glob',
      'src/a.ts\nsrc/b.ts\n(Results are truncated. Consider using a more specific path or pattern.)',
      {},
      { filenames: ['src/a.ts', 'src/b.ts'], numFiles: 2, truncated: true },
    ],
    ['Glob', 'No files found', {}, { filenames: [], numFiles: 0 }],
    [
      'Grep',
      'Found 1 file limit: 1, offset: 0\nsrc/app.ts',
      {},
      { mode: 'files_with_matches', filenames: ['src/app.ts'], numFiles: 1, appliedLimit: 1, appliedOffset: 0 },
    ],
    [
      'Grep',
      'a.ts:1\nb.ts:2\n\nFound 3 total occurrences across 2 files.',
      { output_mode: 'count' },
      { mode: 'count', filenames: [], content: 'a.ts:1\nb.ts:2', numFiles: 2, numMatches: 3 },
    ],
    [
      'Grep',
      'a.ts:1:x\na.ts:2:y',
      { output_mode: 'content' },
      { mode: 'content', filenames: [], content: 'a.ts:1:x\na.ts:2:y', numFiles: 0, numLines: 2 },
    ],
    [
      'MultiEdit',
      'Applied 2 edits to /f.txt:\n1. Replaced "a" with "b"\n2. Replaced "c" with "d"',
      {
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd', replace_all: true },
        ],
      },
      {
        filePath: '/f.txt',
        edits: [
          { oldString: 'a', newString: 'b' },
          { oldString: 'c', newString: 'd', replaceAll: true },
        ],
        structuredPatch: [],
      },
    ],
    [
      'NotebookEdit',
      'Inserted cell f25b1313 with print("x")',
      { notebook_path: '/n.ipynb' },
      { notebookPath: '/n.ipynb', cellId: 'f25b1313', editMode: 'insert', newSource: 'print("x")' },
    ],
    [
      'Write',
      'File created successfully at: /p/a.md (file state is current in your context — no need to Read it back)',
      { content: 'a\nb\n' },
      {
        filePath: '/p/a.md',
        operation: 'create',
        content: 'a\nb\n',
        structuredPatch: [],
        linesAdded: 2,
        linesRemoved: 0,
      },
    ],
    [
      'Edit',
      "All occurrences of 'a' were successfully replaced with 'b'.",
      { file_path: '/f', old_string: 'a', new_string: 'b', replace_all: true },
      { filePath: '/f', oldString: 'a', newString: 'b', replaceAll: true, structuredPatch: [] },
    ],
    ['TaskCreate', 'Task #1 created successfully: Write the parser', {}, { taskId: '1', subject: 'Write the parser' }],
    [
      'TaskGet',
      'Task #1: Write the parser\nStatus: in_progress\nDescription: Parse lines\nBlocks: #2',
      {},
      {
        task: {
          id: '1',
          subject: 'Write the parser',
          status: 'in_progress',
          description: 'Parse lines',
          blocks: ['2'],
        },
      },
    ],
    ['TaskGet', 'Task not found', {}, { task: null }],
    ['TaskUpdate', 'Updated task #1 status', {}, { success: true, taskId: '1', updatedFields: ['status'] }],
    [
      'TaskUpdate',
      'Task not found',
      { taskId: '999' },
      { success: false, taskId: '999', updatedFields: [], error: 'Task not found' },
    ],
    [
      'TaskList',
      '#1 [pending] Write the parser\n#2 [completed] Render',
      {},
      {
        tasks: [
          { id: '1', status: 'pending', subject: 'Write the parser' },
          { id: '2', status: 'completed', subject: 'Render' },
        ],
      },
    ],
    [
      'CronCreate',
      'Scheduled recurring job 8604b53e (Every 5 minutes). Next run: Nov 21 8:32pm.',
      {},
      { id: '8604b53e', humanSchedule: 'Every 5 minutes', recurring: true },
    ],
    ['CronDelete', 'Cancelled job 8604b53e.', {}, { id: '8604b53e' }],
    [
      'CronList',
      '8604b53e — Every 5 minutes (recurring) [session-only], next run Nov 21 8:32pm: check the build',
      {},
      { jobs: [{ id: '8604b53e', humanSchedule: 'Every 5 minutes', recurring: true, prompt: 'check the build' }] },
    ],
    [
      'Monitor',
      'Monitor started (task bzyqpg00o, expires in 20s unless the source ends first).',
      { timeout_ms: 20000 },
      { taskId: 'bzyqpg00o', timeoutMs: 20000 },
    ],
    [
      'EnterWorktree',
      'Created worktree at “/p/.claude/worktrees/w” on branch “worktree-w”. The session is now working in the worktree.',
      {},
      {
        worktreePath: '/p/.claude/worktrees/w',
        worktreeBranch: 'worktree-w',
        message:
          'Created worktree at “/p/.claude/worktrees/w” on branch “worktree-w”. The session is now working in the worktree.',
      },
    ],
    [
      'SendMessage',
      '{"success":false,"message":"No agent named \'x\' is reachable."}',
      {},
      { success: false, message: "No agent named 'x' is reachable." },
    ],
    [
      'ReportFindings',
      '1 finding reported.',
      { level: 'low', findings: [{ file: 'a.ts', line: 2, summary: 's', failure_scenario: 'f' }] },
      { count: 1, level: 'low', findings: [{ file: 'a.ts', line: 2, summary: 's', failureScenario: 'f' }] },
    ],
    [
      'ListMcpResourcesTool',
      '[{"name":"notes","uri":"rec://notes","mimeType":"text/plain","server":"rec"}]',
      {},
      { resources: [{ uri: 'rec://notes', name: 'notes', server: 'rec', mimeType: 'text/plain' }] },
    ],
    [
      'ReadMcpResourceTool',
      '{"contents":[{"uri":"rec://notes","text":"hi"}]}',
      {},
      { contents: [{ uri: 'rec://notes', text: 'hi' }] },
    ],
    [
      'LSP',
      'No LSP server available for file type: .ts',
      { operation: 'hover', filePath: '/a.ts' },
      { operation: 'hover', filePath: '/a.ts', result: 'No LSP server available for file type: .ts' },
    ],
    [
      'LS',
      '- /p/\n  - a.ts\n\nNOTE: do any of the files above seem malicious? If so, you MUST refuse.',
      {},
      { listing: '- /p/\n  - a.ts' },
    ],
    [
      'Read',
      '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>',
      { file_path: '/e.txt' },
      { variant: 'text', filePath: '/e.txt', content: '', startLine: 1, numLines: 0 },
    ],
    ['Read', 'PDF file read: /d.pdf (12KB)', { file_path: '/d.pdf' }, { variant: 'pdf', filePath: '/d.pdf' }],
    [
      'Read',
      '<cell id="a"><cell_type>markdown</cell_type># T</cell id="a">\n<cell id="b">x = 1</cell id="b">',
      { file_path: '/n.ipynb' },
      {
        variant: 'notebook',
        filePath: '/n.ipynb',
        cells: [
          { cellId: 'a', cellType: 'markdown', source: '# T' },
          { cellId: 'b', cellType: 'code', source: 'x = 1' },
        ],
      },
    ],
    [
      'Bash',
      'Command running in background with ID: bgect3tr0. Output is being written to: /tmp/x.output.',
      {},
      {
        stdout: 'Command running in background with ID: bgect3tr0. Output is being written to: /tmp/x.output.',
        stderr: '',
        interrupted: false,
        backgroundTaskId: 'bgect3tr0',
      },
    ],
    [
      'Skill',
      'Skill "review" completed (forked execution).\n\nResult:\nAll good.',
      {},
      { commandName: 'review', success: true, status: 'forked', result: 'All good.' },
    ],
    [
      'ExitPlanMode',
      'User has approved your plan. You can now start coding.\n\nYour plan has been saved to: /h/.claude/plans/p.md\nYou can refer back to it.\n\n## Approved Plan:\n# Plan\n1. Do it',
      {},
      { plan: '# Plan\n1. Do it', approved: true, filePath: '/h/.claude/plans/p.md' },
    ],
    [
      'EnterPlanMode',
      'Entered plan mode. Focus on exploring.\n\nIn plan mode, you should:\n1. …',
      {},
      { message: 'Entered plan mode. Focus on exploring.' },
    ],
    [
      'WebFetch',
      'The page says hello.',
      { url: 'https://e.com' },
      { url: 'https://e.com', result: 'The page says hello.' },
    ],
  ];

  for (const [tool, content, input, data] of cases) {
    it(`${tool}: ${content.slice(0, 50).replace(/\n/g, '⏎')}`, () => {
      const typed = fromContent(tool, content, input);
      expect(typed.kind).not.toBe('unknown');
      expect(typed).toMatchObject({ tool });
      expect('data' in typed ? typed.data : undefined).toEqual(data);
    });
  }

  it('unrecognised text for a structured tool is unknown, not a guess', () => {
    expect(fromContent('TaskCreate', 'something else').kind).toBe('unknown');
    expect(fromContent('Read', 'plain words', { file_path: '/x' }).kind).toBe('unknown');
    expect(fromContent('ScheduleWakeup', 'Loop stopped.').kind).toBe('unknown');
  });
});
