import { describe, expect, it } from 'vitest';
import { desktopRolloutHead, rolloutLine as line, rolloutSessions } from '../../../test/codex-rollout.js';

const id = '019f8af9-3076-71f2-9bb4-911cbf338fbd';
const sessionOf = rolloutSessions(id);

/** A script that runs `cmd` and prints its result whole, as ../shared/wild-agents entire-graph-5 (0.145) runs them. */
const script = (cmd: string) =>
  `const r = await tools.exec_command({cmd:${JSON.stringify(cmd)},"workdir":"/p/entire-graph","yield_time_ms":1000}); text(JSON.stringify(r))\n`;
const printed = (exit: number, output: string) =>
  JSON.stringify({
    chunk_id: '7f1a5f',
    wall_time_seconds: 0.000001875,
    exit_code: exit,
    original_token_count: 42,
    output,
  });

/** A rollout of `exec` calls, each its script and what it printed. */
function rollout(calls: readonly (readonly [input: string, output: string])[]): string {
  const lines = calls.flatMap(([input, output], i) => [
    line(`2026-07-22T17:57:5${i}.116Z`, 'response_item', {
      type: 'custom_tool_call',
      status: 'completed',
      call_id: `call_${i}`,
      name: 'exec',
      input,
    }),
    line(`2026-07-22T17:57:5${i}.488Z`, 'response_item', {
      type: 'custom_tool_call_output',
      call_id: `call_${i}`,
      output: [
        { type: 'input_text', text: 'Script completed\nWall time 0.4 seconds\nOutput:\n' },
        { type: 'input_text', text: output },
      ],
    }),
  ]);
  return `${[...desktopRolloutHead(id, 'Log in.'), ...lines].join('\n')}\n`;
}

describe("a Codex exec script that printed its command's result", () => {
  // Before: each a success (entire-graph-5 019f8af9: 7 such calls, `entire login` and `go test` that exited 1).
  it("fails as the command did, as a shell call's exit fails it", async () => {
    const session = await sessionOf(
      rollout([
        [
          script('entire login --device'),
          printed(1, 'start login: dial tcp: lookup us.auth.entire.io: no such host\r\n'),
        ],
        [script('go test ./...'), printed(0, 'ok  \tgraph\t0.2s\n')],
        [script('rg -n "TODO" internal'), printed(1, '')],
        ['const r = await tools.exec_command({cmd: c}); text(r.output)\n', 'exit_code: 1, said the script'],
      ]),
    );
    expect(session.calls.map((c) => [c.status, c.result?.error?.category, c.result?.error?.message])).toEqual([
      ['error', 'exit-code', 'Exit code 1\nstart login: dial tcp: lookup us.auth.entire.io: no such host'],
      ['ok', undefined, undefined],
      // rg's exit 1 is "no matches", an answer (the script's one literal command says which program ran)
      ['ok', undefined, undefined],
      // words of its own, no printed result: nothing to read an exit from
      ['ok', undefined, undefined],
    ]);
  });
});
