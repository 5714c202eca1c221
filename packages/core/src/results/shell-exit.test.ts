import { describe, expect, it } from 'vitest';
import { readShellExit, shellExitError } from './shell-exit.js';

describe('readShellExit', () => {
  it.each([
    ['cat missing.txt', 1, { failed: true }],
    ['exit 3', 3, { failed: true }],
    ['no_such_command_xyz', 127, { failed: true }],
    ['ls', 0, { failed: false, interpretation: undefined }],
    ['ls', undefined, { failed: false, interpretation: undefined }],
    ['grep -rn TODO src', 1, { failed: false, interpretation: 'No matches found' }],
    ['grep -rn TODO src', 2, { failed: true }],
    ['cd src && LC_ALL=C /usr/bin/grep -c x a.txt 2>&1', 1, { failed: false, interpretation: 'No matches found' }],
    ['make 2>&1 | rg error', 1, { failed: false, interpretation: 'No matches found' }],
    ['find / -name x', 1, { failed: false, interpretation: 'Some directories were inaccessible' }],
    // The last command of the line sets the exit code: here grep's 1 is not what came back.
    ['grep x a.txt; false', 1, { failed: true }],
    ['grep x a.txt | head', 1, { failed: true }],
    // Operators inside quotes are the pattern's, not the shell's.
    ['rg -n "foo|bar" src', 1, { failed: false, interpretation: 'No matches found' }],
    ['grep -E "foo|bar" src', 1, { failed: false, interpretation: 'No matches found' }],
    ["rg 'TODO|FIXME'", 1, { failed: false, interpretation: 'No matches found' }],
    ['grep "a;b" f', 1, { failed: false, interpretation: 'No matches found' }],
    ['rg -e \'a && b\' -e "x || y" src', 1, { failed: false, interpretation: 'No matches found' }],
    ['grep a\\|b f', 1, { failed: false, interpretation: 'No matches found' }],
    ['grep "say \\"a|b\\"" f', 1, { failed: false, interpretation: 'No matches found' }],
    ["cd src && rg 'x|y' | sort", 1, { failed: true }],
    ["rg 'x|y' src; false", 1, { failed: true }],
    ['make "a|b" | grep err', 1, { failed: false, interpretation: 'No matches found' }],
    // A command substitution's operators are its own; the line's last command is outside it.
    ['grep "$(echo "a|b")" f', 1, { failed: false, interpretation: 'No matches found' }],
    ['rg x `git ls-files | head`', 1, { failed: false, interpretation: 'No matches found' }],
    ['echo $(grep x f)', 1, { failed: true }],
    // A quote left open: the last command is not known.
    ['grep "a|b f', 1, { failed: true }],
  ] as const)('%s → exit %s', (command, exitCode, want) => {
    expect(readShellExit(command, exitCode)).toEqual(want);
  });
});

describe('shellExitError', () => {
  it("is classified as Claude Code's Bash failures are: exit-code with the code, in Claude Code's wording", () => {
    expect(shellExitError(1, 'cat: missing.txt: No such file or directory\n')).toEqual({
      category: 'exit-code',
      severity: 'error',
      exitCode: 1,
      message: 'Exit code 1\ncat: missing.txt: No such file or directory',
    });
    expect(shellExitError(1, '')).toEqual({
      category: 'exit-code',
      severity: 'error',
      exitCode: 1,
      message: 'Exit code 1',
    });
  });
});
