import { userSays } from '@agentdash/testing/codex-rollout';
import { describe, expect, it } from 'vitest';
import { loadRollout } from '../../../test/load-rollout.js';

/** A 0.40 rollout whose one shell call ran `command` and got `output` as the client wrote it. */
async function ranInSandbox(command: string, output: string) {
  const session = await loadRollout(
    '01997e76-d124-7592-9cac-2ec05abbca09',
    [
      userSays(1, 'Test it.'),
      [
        2,
        'response_item',
        {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
          call_id: 'call_1',
        },
      ],
      [3, 'response_item', { type: 'function_call_output', call_id: 'call_1', output }],
    ],
    '0.40.0',
  );
  const call = session.calls[0];
  if (call === undefined) throw new Error('no call');
  return call;
}

const SEATBELT = 'failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error';

// Clients up to 0.46 wrote any non-zero exit in the sandbox as its denial; ../shared/wild-agents holds 40 such calls,
// failing test runs and syntax errors most of them. Before: every one permission-denied, with no exit code.
describe('a command that exited non-zero in the sandbox (Codex up to 0.46)', () => {
  it('is the command failing, with its exit code, when its output says no denial (a failing test run)', async () => {
    const output = `${SEATBELT}, exit code: 1, stdout: .FFFFF..........      [100%]\n5 failed, 10 passed, stderr: `;
    const call = await ranInSandbox('pytest -q', output);
    expect(call.status).toBe('error');
    expect(call.result?.error).toMatchObject({ category: 'exit-code', severity: 'error', exitCode: 1 });
    // the client's text kept whole
    expect(call.result?.error?.message).toContain('5 failed, 10 passed');
  });

  it('reads the code of the Rust form too (`Denied { output: ExecToolCallOutput { exit_code: 128, …`)', async () => {
    const output =
      'failed in sandbox MacosSeatbelt with execution error: Denied { output: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: "" } } }';
    const call = await ranInSandbox('git commit -m x', output);
    expect(call.result?.error).toMatchObject({ category: 'exit-code', exitCode: 128 });
  });

  it('is the sandbox denying it when the output says so ("Operation not permitted")', async () => {
    const output = `${SEATBELT}, exit code: 1, stdout: , stderr: bash: cannot create temp file for here document: Operation not permitted\n`;
    const call = await ranInSandbox("cat <<'EOF' > a.txt\nx\nEOF", output);
    expect(call.result?.error).toMatchObject({ category: 'permission-denied', severity: 'error', exitCode: 1 });
  });

  it('is the command failing when only its stdout says "Permission denied" (a test of permissions failing)', async () => {
    const output = `${SEATBELT}, exit code: 1, stdout: FAIL test_chmod: Permission denied expected, stderr: `;
    const call = await ranInSandbox('pytest -q', output);
    expect(call.result?.error).toMatchObject({ category: 'exit-code', exitCode: 1 });
  });

  it('is no failure when the exit means "nothing found" (grep 1), as Claude Code reads it', async () => {
    const call = await ranInSandbox('grep -rn needle src', `${SEATBELT}, exit code: 1, stdout: , stderr: `);
    expect(call.status).toBe('ok');
  });

  it('is a timeout when the sandbox timed it out, and a failure without a code otherwise', async () => {
    const timedOut = await ranInSandbox('sleep 999', 'failed in sandbox None with execution error: command timed out');
    expect(timedOut.result?.error).toMatchObject({ category: 'timeout' });
    const killed = await ranInSandbox('make', 'failed in sandbox: sandbox error: command was killed by a signal');
    expect(killed.result?.error).toMatchObject({ category: 'permission-denied' });
    const usage = await ranInSandbox('python -c', 'failed in sandbox: Argument expected for the -c option\nusage: …');
    expect(usage.result?.error).toMatchObject({ category: 'other', severity: 'error' });
  });

  // ../shared/wild-agents crm-admin-1 (0.101): `dotnet test` killed by the call's own 10-minute timeout, read as the
  // command's exit 124 (`exit-code`), where Claude Code's timed-out commands are `timeout`.
  it("is a timeout when Codex's own time limit ended it (its message the output's last line)", async () => {
    const output = 'Exit code: 124\nWall time: 600.1 seconds\nOutput:\ncommand timed out after 600102 milliseconds\n';
    const call = await ranInSandbox('dotnet test', output);
    expect(call.status).toBe('error');
    expect(call.result?.error).toMatchObject({ category: 'timeout', severity: 'error', exitCode: 124 });
    // a command whose own output says so earlier, then goes on and fails, is its own failure
    const own = await ranInSandbox(
      'cat log',
      'Exit code: 1\nWall time: 0.1 seconds\nOutput:\ncommand timed out after 5 milliseconds\nfailed\n',
    );
    expect(own.result?.error).toMatchObject({ category: 'exit-code', exitCode: 1 });
  });
});

describe("a sandbox's report of an exit, typed as the command's output", () => {
  // Before: stdout the whole report, stderr '' (agentcmd-1 0199812e: `rg` with no match, brew's denials in stderr).
  it("holds the command's stdout and stderr apart", async () => {
    const stderr =
      '/opt/homebrew/Library/Homebrew/brew.sh: line 60: cannot create temp file: Operation not permitted\n';
    const call = await ranInSandbox('rg -n "LineChart" src', `${SEATBELT}, exit code: 1, stdout: , stderr: ${stderr}`);
    expect(call.status).toBe('ok');
    expect(call.result?.typed).toMatchObject({
      kind: 'bash',
      data: { stdout: '', stderr, returnCodeInterpretation: 'No matches found' },
    });
  });

  it("reads the Rust form's two texts, their escapes undone", async () => {
    const output =
      'failed in sandbox MacosSeatbelt with execution error: Denied { output: ExecToolCallOutput { exit_code: 1, stdout: StreamOutput { text: "", truncated_after_lines: None }, stderr: StreamOutput { text: "fatal: cannot lock ref \'refs/heads/x\': \\"x.lock\\": Operation not permitted\\n", truncated_after_lines: None } } }';
    const call = await ranInSandbox('grep -r x .', output);
    expect(call.result?.typed).toMatchObject({
      kind: 'bash',
      data: { stdout: '', stderr: 'fatal: cannot lock ref \'refs/heads/x\': "x.lock": Operation not permitted\n' },
    });
  });
});
