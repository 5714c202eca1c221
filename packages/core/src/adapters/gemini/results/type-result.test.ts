import { describe, expect, it } from 'vitest';
import type { ResultContent } from '../../../model/content.js';
import { discoverGemini } from '../discover.js';
import { geminiFixtures, readGemini } from '../test-helpers.js';
import { canonicalGeminiToolName } from '../tool-names.js';
import { parseShellOutput } from './shell.js';
import { typeGeminiToolResult } from './type-result.js';

function typeOne(
  name: string,
  args: Record<string, unknown>,
  content: ResultContent,
  recorded: Record<string, unknown>,
) {
  return typeGeminiToolResult({
    name,
    canonicalName: canonicalGeminiToolName(name),
    input: args,
    content,
    toolUseResult: recorded,
    isError: recorded.status !== 'success',
  });
}

describe('shell', () => {
  it('reads 0.61 output (no exit line for 0) and 0.20 output (every field)', () => {
    expect(parseShellOutput('Output: hello\nREADME.md\nProcess Group PGID: 30076')).toMatchObject({
      output: 'hello\nREADME.md',
      exitCode: 0,
    });
    expect(
      parseShellOutput(
        "Command: ls /nonexistent-dir-rec\nDirectory: (root)\nOutput: ls: cannot access '/nonexistent-dir-rec': No such file or directory\nError: (none)\nExit Code: 2\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 30235",
      ),
    ).toEqual({
      command: 'ls /nonexistent-dir-rec',
      directory: '(root)',
      output: "ls: cannot access '/nonexistent-dir-rec': No such file or directory",
      error: undefined,
      exitCode: 2,
      signal: undefined,
      backgroundPids: undefined,
    });
  });

  it('a non-zero exit is a failed call typed as a Claude Code Bash failure: exit-code, with its code', () => {
    // The client says "success"; the decoder flags the result (records.ts), typing says why.
    const outcome = typeGeminiToolResult({
      name: 'run_shell_command',
      canonicalName: 'run_shell_command',
      input: { command: 'echo "to stderr" >&2; exit 3' },
      content: '<untrusted_context>\nOutput: to stderr\nExit Code: 3\nProcess Group PGID: 30140\n</untrusted_context>',
      toolUseResult: { status: 'success', resultDisplay: 'to stderr' },
      isError: true,
    });
    expect(outcome).toEqual({
      typed: { kind: 'error', tool: 'run_shell_command', message: 'Exit code 3\nto stderr' },
      error: { category: 'exit-code', severity: 'error', exitCode: 3, message: 'Exit code 3\nto stderr' },
      images: [],
    });
  });

  it("grep's exit 1 is an answer (no matches), as Claude Code reads it: ok, with the exit code and its reading", () => {
    const outcome = typeOne(
      'run_shell_command',
      { command: 'grep -rn TODO src' },
      'Command: grep -rn TODO src\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 1',
      { status: 'success' },
    );
    expect(outcome).toEqual({
      typed: {
        kind: 'bash',
        tool: 'run_shell_command',
        data: { stdout: '', stderr: '', exitCode: 1, returnCodeInterpretation: 'No matches found', interrupted: false },
      },
      error: undefined,
      images: [],
    });
  });
});

describe('errors carry the shared categories', () => {
  const cases: [string, string, string, string][] = [
    ['no_such_tool', 'error', 'Tool "no_such_tool" not found. Did you mean one of: "update_topic"?', 'unknown-tool'],
    ['run_shell_command', 'cancelled', '[Operation Cancelled] Reason: User cancelled the operation.', 'interrupted'],
    ['replace', 'error', "Could not find an exact match for 'old_string' in '/p/mod7.js'.", 'string-not-found'],
    ['replace', 'error', 'Failed to edit, 0 occurrences found for old_string (line three).', 'string-not-found'],
    ['read_file', 'error', 'File not found: /home/user/proj/files/missing.txt', 'file-not-found'],
    ['read_file', 'error', 'Path is a directory, not a file: /home/user/proj/misc/src', 'validation'],
    [
      'list_directory',
      'error',
      'Path must be within one of the workspace directories: /home/user/proj/misc',
      'permission-denied',
    ],
    // the client's rule refused the host (a private address): a policy, not the network
    [
      'web_fetch',
      'error',
      'All requested URLs were skipped: [Blocked Host] http://127.0.0.1:8791/x',
      'permission-denied',
    ],
  ];
  it.each(cases)('%s (%s): %s → %s', (name, status, message, category) => {
    const outcome = typeOne(name, {}, message, { status });
    expect(outcome.typed).toEqual({ kind: 'error', tool: name, message });
    // the person's cancel is theirs, not the tool's failure
    const severity = category === 'interrupted' ? 'expected' : 'error';
    expect(outcome.error).toEqual({ category, severity, message });
  });
});

describe('a failed MCP call', () => {
  it('keeps its server and tool (typed mcp, with the error): the tool reported the failure, an `other` error', () => {
    const message = 'MCP tool \'fail\' reported tool error for function call: {"name":"fail","args":{}}';
    const outcome = typeOne('mcp_rec_fail', { reason: 'x' }, message, { status: 'error' });
    expect(outcome).toEqual({
      typed: {
        kind: 'mcp',
        tool: 'mcp_rec_fail',
        data: { server: 'rec', tool: 'fail', text: message, blocks: [{ type: 'text', text: message }] },
      },
      error: { category: 'other', severity: 'error', message },
      images: [],
    });
  });

  it('a failure to call the server is an API error', () => {
    const outcome = typeOne('mcp_rec_echo', {}, 'MCP error -32000: Connection closed', { status: 'error' });
    expect(outcome.error?.category).toBe('api-error');
  });
});

describe('every call of the bundled fixtures', () => {
  it('types onto its kind; tools without a shared kind stay unknown with their data', async () => {
    const kinds = new Map<string, Set<string>>();
    for (const root of [
      '0.61.0/.gemini',
      '0.20.2/.gemini',
      'wild/entire-cli-2',
      'wild/agentcmd-1',
      'wild/free5gc-compose-1',
    ]) {
      const { files } = await discoverGemini(`${geminiFixtures}/${root}`);
      for (const file of files) {
        const { records } = await readGemini(file);
        const calls = new Map<string, { name: string; input: unknown }>();
        for (const r of records) {
          if (r.kind === 'assistant') for (const b of r.content) if (b.kind === 'tool-use') calls.set(b.id, b);
          if (r.kind !== 'user' || typeof r.content === 'string') continue;
          for (const b of r.content) {
            if (b.kind !== 'tool-result') continue;
            const call = calls.get(b.toolUseId);
            const outcome = typeGeminiToolResult({
              name: call?.name ?? '?',
              canonicalName: canonicalGeminiToolName(call?.name ?? '?'),
              input: call?.input,
              content: b.content,
              toolUseResult: r.toolUseResult,
              isError: b.isError,
            });
            const set = kinds.get(call?.name ?? '?') ?? new Set();
            set.add(outcome.error ? `error:${outcome.error.category}` : outcome.typed.kind);
            kinds.set(call?.name ?? '?', set);
          }
        }
      }
    }
    expect(Object.fromEntries([...kinds].map(([k, v]) => [k, [...v].sort().join(' ')]).sort())).toMatchInlineSnapshot(`
      {
        "codebase_investigator": "agent",
        "complete_task": "task-complete",
        "glob": "glob",
        "google_web_search": "web-search",
        "grep_search": "grep",
        "invoke_agent": "agent",
        "list_background_processes": "process-list",
        "list_directory": "error:permission-denied ls",
        "mcp_rec_echo": "mcp",
        "mcp_rec_fail": "error:other mcp",
        "mcp_rec_image": "mcp",
        "mcp_rec_throws": "error:other mcp",
        "no_such_tool": "error:unknown-tool",
        "read_file": "error:file-not-found error:validation read",
        "replace": "edit error:string-not-found",
        "run_shell_command": "bash error:exit-code",
        "save_memory": "memory",
        "search_file_content": "grep",
        "update_topic": "topic",
        "web_fetch": "error:permission-denied web-fetch",
        "write_file": "error:unknown-tool write",
        "write_todos": "todo-write",
      }
    `);
  });
});

describe('memory, topics, background processes and a subagent’s completion', () => {
  const ok = { status: 'success' };
  it('types each from what the client wrote (0.20 save_memory, 0.61 update_topic, list_background_processes, complete_task)', () => {
    expect(
      typeOne(
        'save_memory',
        { fact: 'The project uses a mock API.' },
        '{"success":true,"message":"Okay, I\'ve remembered that: \\"The project uses a mock API.\\""}',
        ok,
      ).typed,
    ).toEqual({
      kind: 'memory',
      tool: 'save_memory',
      data: {
        fact: 'The project uses a mock API.',
        saved: true,
        message: 'Okay, I\'ve remembered that: "The project uses a mock API."',
      },
    });
    expect(typeOne('save_memory', { fact: 'x' }, '{"success":false,"message":"disk full"}', ok).typed).toMatchObject({
      data: { saved: false, message: 'disk full' },
    });
    expect(
      typeOne(
        'update_topic',
        { title: 'Exploring tools', summary: 'A new chapter.', strategic_intent: 'Try each tool.' },
        'Current topic: "Exploring tools"\nTopic summary: A new chapter.',
        ok,
      ).typed,
    ).toEqual({
      kind: 'topic',
      tool: 'update_topic',
      data: { title: 'Exploring tools', summary: 'A new chapter.', strategicIntent: 'Try each tool.' },
    });
    expect(
      typeOne(
        'list_background_processes',
        {},
        '- [PID 10986] RUNNING: `sleep 1; echo bg-done`\n- [PID 11002] EXITED: `npm test`',
        ok,
      ).typed,
    ).toEqual({
      kind: 'process-list',
      tool: 'list_background_processes',
      data: {
        processes: [
          { pid: 10986, status: 'running', command: 'sleep 1; echo bg-done' },
          { pid: 11002, status: 'exited', command: 'npm test' },
        ],
      },
    });
    expect(
      typeOne(
        'complete_task',
        { result: { response: 'src/ holds app.js.' } },
        'Output submitted and task completed.',
        ok,
      ).typed,
    ).toEqual({
      kind: 'task-complete',
      tool: 'complete_task',
      data: { result: 'src/ holds app.js.', message: 'Output submitted and task completed.' },
    });
    expect(typeOne('complete_task', { result: { files: 2 } }, '', ok).typed).toMatchObject({
      data: { result: '{\n  "files": 2\n}' },
    });
  });
});

describe('a subagent’s report (invoke_agent)', () => {
  const invoked = (result: string) =>
    typeOne(
      'invoke_agent',
      { agent_name: 'generalist', prompt: 'List the project files and report what src/ contains.' },
      `Subagent 'generalist' finished.\nTermination Reason: GOAL\nResult:\n${result}`,
      { status: 'success', agentId: '76200ef5-c0ea-4a38-b542-bca8ed4466a9' },
    ).typed;
  // Before: the report was the JSON document the client wrote, `{ "response": … }`, shown as one flattened line.
  it('is the response the subagent submitted, as complete_task gives it (0.61 corpus, subagent scenario)', () => {
    expect(invoked('{\n  "response": "src/ contains app.js (entry point) and util.js (add, greet)."\n}')).toMatchObject(
      {
        kind: 'agent',
        data: {
          status: 'completed',
          agentType: 'generalist',
          text: 'src/ contains app.js (entry point) and util.js (add, greet).',
        },
      },
    );
  });
  it('keeps any other result as written', () => {
    const other = '{\n  "SummaryOfFindings": "two modules",\n  "RelevantLocations": []\n}';
    expect(invoked(other)).toMatchObject({ data: { text: other } });
    expect(invoked('plain words')).toMatchObject({ data: { text: 'plain words' } });
  });
});
