import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { filesTouchedBy } from '../../present/index.js';

/** A 0.40 rollout whose one shell call has `output` as the client wrote it (the user declined it, it failed…). */
async function declined(command: string, output: string) {
  const dir = join(mkdtempSync(join(tmpdir(), 'codex-rejected-')), 'sessions/2025/09/24');
  mkdirSync(dir, { recursive: true });
  const id = '01997e76-d124-7592-9cac-2ec05abbca08';
  const at = (s: number) => `2025-09-25T01:22:${String(20 + s).padStart(2, '0')}.000Z`;
  const line = (s: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(s), type, payload });
  const file = join(dir, `rollout-2025-09-24T19-22-20-${id}.jsonl`);
  writeFileSync(
    file,
    `${[
      line(0, 'session_meta', {
        id,
        timestamp: at(0),
        cwd: '/repo',
        originator: 'codex_vscode',
        cli_version: '0.40.0',
      }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add it.' }] }),
      line(2, 'response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
        call_id: 'call_1',
      }),
      line(3, 'response_item', { type: 'function_call_output', call_id: 'call_1', output }),
    ].join('\n')}\n`,
  );
  const [group] = groupSessions((await discoverAll([file])).files);
  if (group === undefined) throw new Error('no session');
  const session = await loadSession(group);
  const call = session.calls[0];
  if (call === undefined) throw new Error('no call');
  return call;
}

describe('a change the user declined (Codex approval)', () => {
  // Before: a success typed as the patch, its file listed as created (../shared/wild-agents agentcmd-1, 0.40).
  it('is an expected failure, user-rejected, and touches no file ("patch rejected by user")', async () => {
    const patch = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: src/a.ts\n+one\n+two\n*** End Patch\nPATCH";
    const call = await declined(patch, 'patch rejected by user');
    expect(call.status).toBe('error');
    expect(call.result?.error).toMatchObject({ category: 'user-rejected', severity: 'expected' });
    expect(filesTouchedBy(call, '/repo')).toEqual([]);
  });

  it('is the same for a command ("exec command rejected by user")', async () => {
    const call = await declined('rm -rf build', 'exec command rejected by user');
    expect(call.result?.error).toMatchObject({ category: 'user-rejected', severity: 'expected' });
  });
});

describe('a patch the client could not apply (its whole output `error: …`)', () => {
  const patch =
    "apply_patch << 'PATCH'\n*** Begin Patch\n*** Update File: README.md\n@@\n-old\n+new\n*** End Patch\nPATCH";
  // Before: a success typed as the patch, README.md listed as changed (../shared/wild-agents openprintkit-1 0.34,
  // ocodex-1: 18 calls).
  it('is a failed call, its lines not found, and touches no file', async () => {
    const call = await declined(
      patch,
      'error: Failed to find expected lines in /repo/README.md:\n🧰 Project Structure',
    );
    expect(call.status).toBe('error');
    expect(call.result?.error).toMatchObject({ category: 'string-not-found', severity: 'error' });
    expect(filesTouchedBy(call, '/repo')).toEqual([]);
  });

  it('is a failed call when the patch is malformed ("invalid hunk")', async () => {
    const call = await declined(
      patch,
      "error: invalid hunk at line 3, '[workspace]' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    );
    expect(call.result?.error).toMatchObject({ category: 'validation', severity: 'error' });
  });

  it("is no failure when a command's own output begins so (under its exit-code header)", async () => {
    const call = await declined(
      'cat log.txt',
      'Exit code: 0\nWall time: 0 seconds\nOutput:\nerror: Failed to find expected lines\n',
    );
    expect(call.status).toBe('ok');
  });
});
