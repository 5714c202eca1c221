import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../src/model/session.js';
import { type ToolEnvelope, toEnvelope } from '../src/results/envelope.js';
import { corpusDir, corpusVersions, hasCorpus, loadSampleSession, loadSessions } from './helpers.js';

/**
 * Whether an envelope says the call failed: `success:false`, or (seed 004) a command that ran and exited with a
 * known non-zero code.
 */
function saysFailed(envelope: ToolEnvelope): boolean {
  if (!envelope.success) return true;
  const code = envelope.data.exit_code;
  return typeof code === 'number' && code !== 0;
}

/** The `is_error` results (and the others) whose envelope says the opposite, as `Tool file:line`. */
function disagreements(sessions: readonly Session[]): string[] {
  return sessions
    .flatMap((s) => s.calls)
    .filter((c) => c.result !== undefined && saysFailed(toEnvelope(c)) !== c.result.isError)
    .map((c) => `${c.name} ${c.loc.file.split('/').slice(-2).join('/')}:${c.loc.line}`);
}

describe('envelope failures (bundled 1.0.128 shell session)', () => {
  it('a failed Bash call without a printed exit code is success:false with its output as the error', async () => {
    const session = await loadSampleSession('-home-user-proj-shell', 'f0835e0b-b4c6-4910-817c-346fd7332302');
    const failed = session.calls
      .filter((c) => c.result?.isError && c.name === 'Bash')
      .map((c) => ({ command: (c.input as { command?: string }).command, envelope: toEnvelope(c) }));
    expect(failed).toEqual([
      {
        command: 'echo to-stdout; echo to-stderr >&2; exit 3',
        envelope: { success: false, error: 'to-stderr\n\nto-stdout' },
      },
      { command: 'false', envelope: { success: false, error: 'Error' } },
      { command: 'sleep 5; echo finished', envelope: { success: false, error: 'Command timed out after 1s' } },
      { command: 'sleep 0.8; echo slow failure >&2; exit 2', envelope: { success: false, error: 'slow failure' } },
    ]);
    expect(disagreements([session])).toEqual([]);
  });
});

describe.skipIf(!hasCorpus)('envelope failures (every corpus version)', () => {
  for (const version of corpusVersions) {
    it(`${version}: every is_error result, and only those, comes out as a failure`, async () => {
      const sessions = await loadSessions(join(corpusDir, version, 'claude-home'));
      expect(sessions.flatMap((s) => s.calls).filter((c) => c.result?.isError).length).toBeGreaterThan(40);
      expect(disagreements(sessions)).toEqual([]);
    });
  }
});
