import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { filesTouchedBy } from '../../present/index.js';

/** A 0.40 rollout whose one shell call the user declined, with `output` as the client wrote it. */
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
