import { describe, expect, it } from 'vitest';
import { codexFailureOf } from '../adapters/codex/errors.js';
import { classifyCopilotError } from '../adapters/copilot/errors.js';
import { classifyOpenCodeError } from '../adapters/opencode/errors.js';
import { classifyError } from './classify-error.js';
import { shellExitError } from './shell-exit.js';

/** A Bash failure's category and exit code, as the Claude adapter classifies its unwrapped message. */
const bash = (message: string) => {
  const { category, exitCode } = classifyError('bash', message, false);
  return [category, exitCode];
};

describe('a shell command that failed', () => {
  it("is its exit, whatever words its output holds (a check's report, ls's errors, a test's timeout)", () => {
    // 1.0.x prints the output alone; the words are the command's, not a network, permission or timeout of the call
    expect(bash('Pre-commit validation failed:\n[DIALYZER]\n  :tls_certificate_check,\nTotal errors: 11')).toEqual([
      'exit-code',
      undefined,
    ]);
    expect(bash("ls: cannot open directory '/root': Permission denied")).toEqual(['exit-code', undefined]);
    expect(bash('FAIL src/a.test.ts\n  ✕ loads (5003 ms)\n  Exceeded timeout of 5000 ms for a test')).toEqual([
      'exit-code',
      undefined,
    ]);
    expect(bash('TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string')).toEqual([
      'exit-code',
      undefined,
    ]);
    // 2.x writes the code first: the output after it never changes the category, and the code stays
    expect(bash('Exit code 1\nfetch failed: ECONNREFUSED 127.0.0.1:5432')).toEqual(['exit-code', 1]);
    expect(bash('Exit code 2\nerror: PreToolUse hook error in the fixture\nInterrupted by user')).toEqual([
      'exit-code',
      2,
    ]);
  });

  it('says what the client said before any output: a timeout, an approval, a hook, a rejection, a missing tool', () => {
    expect(bash('Command timed out after 1s')).toEqual(['timeout', undefined]);
    expect(bash('Exit code 143\nCommand timed out after 1s')).toEqual(['timeout', 143]);
    expect(bash('This command requires approval')).toEqual(['permission-denied', undefined]);
    expect(
      bash(
        "touch in '/home/user/proj/x.txt' needs approval. The path is inside the working directories for this session",
      ),
    ).toEqual(['permission-denied', undefined]);
    expect(bash("Claude requested permissions to use Bash, but you haven't granted it yet.")).toEqual([
      'permission-denied',
      undefined,
    ]);
    expect(bash('PreToolUse:Bash hook error: [./check.sh]: blocked')).toEqual(['hook-blocked', undefined]);
    expect(bash('Error: No such tool available: Bash')).toEqual(['unknown-tool', undefined]);
    expect(bash('[Request interrupted by user for tool use]')).toEqual(['interrupted', undefined]);
    expect(classifyError('bash', "The user doesn't want to proceed with this tool use.", false).severity).toBe(
      'expected',
    );
  });

  it("is the person's decision, not the tool's error, when they interrupted it (a wild 2.0.67 Task: an error)", () => {
    for (const [kind, message] of [
      ['agent', 'Interrupted by user'],
      ['bash', '[Request interrupted by user for tool use]'],
      ['bash', 'partial output\n<error>Command was aborted before completion</error>'],
      ['read', "The user doesn't want to take this action right now. STOP what you are doing."],
    ] as const) {
      expect([classifyError(kind, message, false).category, classifyError(kind, message, false).severity]).toEqual([
        'interrupted',
        'expected',
      ]);
    }
  });

  it('keeps its exit code for the other agents too (Codex, Gemini: the client writes only the code)', () => {
    const error = shellExitError(1, 'husky - pre-commit hook error\nNo such tool available in this image');
    expect([error.category, error.exitCode]).toEqual(['exit-code', 1]);
    expect(shellExitError(7, 'curl: (7) Failed to connect: ECONNREFUSED').exitCode).toBe(7);
  });
});

describe("an MCP resource tool's failure", () => {
  it("is the client's failure to call the server, as `MCP error …` is", () => {
    for (const [kind, message] of [
      ['list-mcp-resources', 'Server "no-such-server" not found. Available servers: rec'],
      ['read-mcp-resource-dir', 'Directory listing is not enabled in this build.'],
      ['read-mcp-resource', 'MCP error -32602: Resource rec://missing not found'],
    ] as const) {
      expect(classifyError(kind, message, false).category, kind).toBe('api-error');
    }
    // an agent type that does not exist is still the model's bad input
    expect(classifyError('agent', "Agent type 'x' not found. Available agents: a, b", true).category).toBe(
      'validation',
    );
  });
});

describe("an interruption, whatever the agent's words", () => {
  it("is the person's decision for Codex, Copilot CLI and OpenCode too (expected, as Claude Code's and Gemini's)", () => {
    expect(codexFailureOf('exec_command', 'aborted by user', false, true)).toMatchObject({
      category: 'interrupted',
      severity: 'expected',
    });
    expect(classifyCopilotError('The operation was aborted')).toMatchObject({
      category: 'interrupted',
      severity: 'expected',
    });
    expect(classifyOpenCodeError('Tool execution was interrupted')).toMatchObject({
      category: 'interrupted',
      severity: 'expected',
    });
  });
});
