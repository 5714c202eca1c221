import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFixtures } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';
import { loadSession } from '../../session/load-session.js';

/** `codex exec --json` output of the corpus's scenarios, bundled (`test/fixtures/codex/exec/`). */
async function execSession(name: string): Promise<Session> {
  const { files } = await discoverAll([join(codexFixtures, 'exec', name)]);
  const [group] = groupSessions(files);
  if (group === undefined) throw new Error(`no session in ${name}`);
  return loadSession(group);
}

/** Each call as `name exit/kind category`: what a reader of the list sees. */
const callsOf = (session: Session) =>
  session.calls.map((c) =>
    [
      c.name,
      c.result?.typed.kind ?? 'no result',
      c.result?.error?.category ?? (c.result?.isError === true ? 'error' : 'ok'),
      (c.result?.toolUseResult as { exitCode?: number } | undefined)?.exitCode ?? '',
    ].join(' '),
  );

describe('codex exec --json read as a Codex session', () => {
  it('pairs command items by id, their exit codes typed as the rollout’s shell results', async () => {
    const session = await execSession('0.169.0-shell.exec.jsonl');
    expect(session.agent).toBe('codex');
    expect(session.issues).toEqual([]);
    expect(callsOf(session)).toMatchInlineSnapshot(`
      [
        "exec_command error exit-code 1",
        "exec_command error exit-code 3",
        "exec_command error exit-code 1",
        "exec_command error exit-code 127",
        "exec_command bash ok 0",
        "exec_command bash ok 0",
        "exec_command bash ok 0",
        "exec_command bash ok 0",
        "exec_command bash ok 0",
        "exec_command bash ok 0",
      ]
    `);
  });

  it('counts each turn’s usage once, as one response (the format has no per-request usage)', async () => {
    const session = await execSession('0.169.0-shell.exec.jsonl');
    // `turn.completed`: input 210,541 (174,080 cached), output 427.
    expect(session.usageByModel).toMatchInlineSnapshot(`
      {
        "codex-unknown-model": {
          "cacheCreationInputTokens": 0,
          "cacheReadInputTokens": 174080,
          "inputTokens": 36461,
          "outputTokens": 427,
          "reasoningOutputTokens": 0,
          "responses": 1,
        },
      }
    `);
  });

  it('reads MCP results and failures, file changes, plans and API errors', async () => {
    const mcp = await execSession('0.169.0-mcp.exec.jsonl');
    expect(callsOf(mcp)).toMatchInlineSnapshot(`
      [
        "mcp__rec__echo mcp ok ",
        "mcp__rec__image mcp ok ",
        "mcp__rec__fail mcp other ",
        "mcp__rec__throws mcp other ",
      ]
    `);
    expect(callsOf(await execSession('0.50.0-patch.exec.jsonl'))).toMatchInlineSnapshot(`
      [
        "apply_patch patch ok ",
        "apply_patch patch ok ",
        "apply_patch patch ok ",
        "apply_patch patch ok ",
        "exec_command bash ok 0",
      ]
    `);
    expect(callsOf(await execSession('0.169.0-plan.exec.jsonl'))).toMatchInlineSnapshot(`
      [
        "update_plan todo-write ok ",
        "exec_command bash ok 0",
        "apply_patch patch ok ",
      ]
    `);
    const failed = await execSession('0.98.0-api-429.exec.jsonl');
    const errors = failed.events.flatMap((e) => (e.kind === 'system' ? [`${e.record.level} ${e.record.content}`] : []));
    expect(errors).toMatchInlineSnapshot(`
      [
        "error exceeded retry limit, last status: 429 Too Many Requests, request id: req_57b8f6237cd679643b794c3cd9f6555b",
      ]
    `);
  });
});
