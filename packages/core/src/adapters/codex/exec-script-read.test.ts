import { describe, expect, it } from 'vitest';
import { execScriptCalls, stringLiteralAt } from './exec-script.js';

describe("a Codex exec script's literal strings", () => {
  it('reads double, single and template quotes with their escapes', () => {
    expect(stringLiteralAt('"sed -n \'1,2p\' a\\\\b.txt\\n"', 0)).toBe("sed -n '1,2p' a\\b.txt\n");
    expect(stringLiteralAt("'it\\'s \\x41\\u0042\\u{1F600}'", 0)).toBe("it's AB😀");
    expect(stringLiteralAt('`two\nlines`', 0)).toBe('two\nlines');
  });

  it('gives up on what is made at run time or never closed', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a script's template, as its text
    expect(stringLiteralAt('`git show ${ref}`', 0)).toBeUndefined();
    expect(stringLiteralAt('"open', 0)).toBeUndefined();
    expect(stringLiteralAt('"broken\nline"', 0)).toBeUndefined();
    expect(stringLiteralAt('"bad \\u12"', 0)).toBeUndefined();
    expect(stringLiteralAt('x', 0)).toBeUndefined();
  });
});

describe('the commands and patches of a Codex exec script', () => {
  it("takes the literal `cmd` of each exec_command call, in order, and no variable's", () => {
    const script = [
      'const [a, b] = await Promise.all([',
      '  tools.exec_command({ cmd: "sed -n \'1,240p\' docs/SKILL.md", workdir: "/p" }),',
      "  tools.exec_command({cmd:'git status --short', workdir:'/p'}),",
      ']);',
      'for (const [name, cmd] of cmds) await tools.exec_command({ cmd, workdir: "/p" });',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a script's template, as its text
      'await tools.exec_command({ cmd: `gh pr checks ${n}` });',
      'text(a.output);',
    ].join('\n');
    expect(execScriptCalls(script)).toEqual({
      commands: ["sed -n '1,240p' docs/SKILL.md", 'git status --short'],
      patches: [],
    });
  });

  it('takes a patch written as a literal when the script applies patches, and nothing of a script that only prints', () => {
    const patch = '*** Begin Patch\n*** Update File: /p/a.go\n@@\n-old\n+new\n*** End Patch';
    const applies = `const patch = ${JSON.stringify(patch)};\nconst r = await tools.apply_patch(patch);\ntext(r);`;
    expect(execScriptCalls(applies)).toEqual({ commands: [], patches: [patch] });
    // the same text only printed, and a `cmd:` of no exec_command call
    expect(execScriptCalls(`text(${JSON.stringify(patch)}); const o = { cmd: "rm -rf /" };`)).toEqual({
      commands: [],
      patches: [],
    });
  });
});
