import { describe, expect, it } from 'vitest';
import { desktopRolloutHead, rolloutLine as line, rolloutSessions } from '../../../test/codex-rollout.js';
import { fileActivityOf } from '../../present/file-activity.js';

const id = '019f80ed-65ac-7eb3-9c28-9885c0fbca91';
const sessionOf = rolloutSessions(id);

const PATCH =
  '*** Begin Patch\n*** Update File: /p/entire-graph/internal/gitutil/git.go\n@@\n-\t"os"\n+\t"os/exec"\n*** End Patch\n';

/** Three of the scripts a 0.145 rollout ran with `exec`, as ../shared/wild-agents writes them (entire-graph-6). */
const SCRIPTS = [
  'const r = await tools.exec_command({\n  cmd: "sed -n \'1,240p\' docs/SKILL.md",\n  workdir: "/p/entire-graph"\n});\ntext(r.output);\n',
  'const hits = ALL_TOOLS.filter(x =>\n  /^mcp__codex_apps__github_/.test(x.name) && /github|pull request/i.test(x.description)\n);\nfor (const x of hits) text(x.name);\n',
  `const patch = ${JSON.stringify(PATCH)};\nconst r = await tools.apply_patch(patch);\ntext(JSON.stringify(r));\n`,
];

function rollout(): string {
  const calls = SCRIPTS.flatMap((input, i) => [
    line(`2026-07-20T19:08:0${i}.000Z`, 'response_item', {
      type: 'custom_tool_call',
      status: 'completed',
      call_id: `call_exec_${i}`,
      name: 'exec',
      input,
    }),
    line(`2026-07-20T19:08:0${i}.500Z`, 'response_item', {
      type: 'custom_tool_call_output',
      call_id: `call_exec_${i}`,
      output: [
        { type: 'input_text', text: 'Script completed\nWall time 0.2 seconds\nOutput:\n' },
        { type: 'input_text', text: `output ${i}` },
      ],
    }),
  ]);
  return `${[...desktopRolloutHead(id, 'Find the GitHub tools.'), ...calls].join('\n')}\n`;
}

describe("Codex's exec (0.144+): a JavaScript script, no shell command", () => {
  it('is kept as its tool; its files are those of its literal commands and patches, none by its words', async () => {
    const session = await sessionOf(rollout());
    const calls = session.calls;
    expect(calls.map((c) => [c.canonicalName, c.status, c.typedInput?.command, c.result?.typed?.kind])).toEqual([
      ['exec', 'ok', undefined, 'unknown'],
      ['exec', 'ok', undefined, 'unknown'],
      ['exec', 'ok', undefined, 'unknown'],
    ]);
    expect(calls.map((c) => [c.typedInput?.commands, c.typedInput?.patch])).toEqual([
      [["sed -n '1,240p' docs/SKILL.md"], undefined],
      [undefined, undefined],
      [undefined, PATCH],
    ]);
    // read as a command line, `text(r.output)` was a file written (`> text`) and `x => /^mcp…/` another; the file
    // its command printed is read, the one its patch changed edited
    const activity = fileActivityOf(calls, '/p/entire-graph');
    expect(activity.map((f) => [f.path, f.reads, f.edits, f.linesAdded, f.linesRemoved])).toEqual([
      ['/p/entire-graph/internal/gitutil/git.go', 0, 1, 1, 1],
      ['/p/entire-graph/docs/SKILL.md', 1, 0, 0, 0],
    ]);
    // a script that failed changed nothing known
    const failed = fileActivityOf([{ ...calls[2]!, status: 'error' }], '/p/entire-graph');
    expect(failed.map((f) => f.path)).toEqual([]);
    // the script's output kept whole
    expect(JSON.stringify(calls[1]?.result?.content)).toContain('output 1');
  });
});
