import { describe, expect, it } from 'vitest';
import { shellReadsOf } from './shell-reads.js';

describe('shellReadsOf: the files a shell command only printed', () => {
  it('reads the printers as agents write them (Codex: sed -n, nl | sed, cat && head)', () => {
    expect(shellReadsOf("sed -n '1,200p' README.md")).toEqual(['README.md']);
    expect(shellReadsOf("nl -ba src/a.ts | sed -n '1,120p'")).toEqual(['src/a.ts']);
    expect(shellReadsOf('cat a.txt b.txt && echo --- && head -n 20 c.md; tail -5 "d e.md"')).toEqual([
      'a.txt',
      'b.txt',
      'c.md',
      'd e.md',
    ]);
    expect(shellReadsOf("sed -n '$p' log.txt && cat -n log.txt")).toEqual(['log.txt']);
    // with its errors sent away (Copilot's `cat … 2>/dev/null && echo "---"`): the same files printed
    expect(shellReadsOf('cat a.json 2>/dev/null && echo "---" && head -3 b.txt 2>&1 | tail -1')).toEqual([
      'a.json',
      'b.txt',
    ]);
  });

  it('says nothing of a command it cannot read plainly, or that does more than print', () => {
    for (const command of [
      'cat > x.txt',
      'cat file >/dev/null',
      'cat a 1>b',
      "sed -i 's/a/b/' f",
      "sed -n '/foo/p' f",
      "sed -e '1p' f",
      'cat "$HOME/x"',
      'cat src/*.ts',
      'cat ~/notes',
      'cd sub && cat a',
      "cat 'unclosed",
      'ls -la src && find src -type f',
      'grep -n foo a.ts',
    ]) {
      expect([command, shellReadsOf(command)]).toEqual([command, []]);
    }
    // before a `cd`, the call's own folder
    expect(shellReadsOf('cat a && cd sub && cat b')).toEqual(['a']);
  });
});
