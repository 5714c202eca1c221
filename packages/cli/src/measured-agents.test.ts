/**
 * `sessions` and `stats` over Codex CLI and Gemini CLI sessions whose own telemetry reached the index (the bundled
 * recordings): each session's measured model and tool time are the sums of the client's own durations.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeOtlpRequest, signalOfOtlpPath } from '@agentdash/core';
import { openIndex } from '@agentdash/index';
import { agentOtelRecordings, clientSums, otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';
import { run } from './run.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function cli(dir: string, args: readonly string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 200 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'no-claude'), CODEX_HOME: join(dir, '.codex') },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  expect(code, stderr).toBe(ExitCode.ok);
  return stdout;
}

describe.each(agentOtelRecordings)('$name: sessions and stats with measured figures', ({ name, agent, home }) => {
  it('sessions --json `measured` and stats --json `measured` are the client’s own sums', async () => {
    const recording = join(otelFixtureDir, name);
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-measured-agent-'));
    dirs.push(dir);
    cpSync(join(recording, home), join(dir, agent === 'codex' ? '.codex' : '.gemini'), { recursive: true });
    const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    const requests = readRecording(recording);
    const records = requests.flatMap((request) => {
      const signal = signalOfOtlpPath(request.path) ?? 'logs';
      return decodeOtlpRequest({ signal, contentType: request.contentType, contentEncoding: '', body: request.body })
        .records;
    });
    index.telemetry.store(records);
    index.close();
    const expected = clientSums(agent, records);
    const { sessions } = JSON.parse(await cli(dir, ['sessions', '--agent', agent, '--json'])) as SessionsJson;
    expect(sessions.map((s) => s.id).sort()).toEqual([...expected.keys()].sort());
    for (const s of sessions) {
      const e = expected.get(s.id);
      expect([s.id, s.measured?.apiRequests, s.measured?.modelMs, s.measured?.toolCalls]).toEqual([
        s.id,
        e?.apiRequests,
        e?.modelMs,
        e?.toolCalls,
      ]);
      expect(s.measured?.toolMs).toBeCloseTo(e?.toolMs ?? Number.NaN, 9);
    }
    const stats = JSON.parse(await cli(dir, ['stats', '--agent', agent, '--json'])) as StatsJson;
    const calls = [...expected.values()].reduce((n, s) => n + s.toolCalls, 0);
    expect([stats.measured?.calls, stats.measured?.sessions]).toEqual([calls, expected.size]);
  });
});
