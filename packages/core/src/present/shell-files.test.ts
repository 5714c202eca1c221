import { describe, expect, it } from 'vitest';
import { filesTouchedBy, type TouchingCall } from './file-activity.js';
import { joinedPath } from './paths.js';
import { shellFilesOf, shellReadsOf } from './shell-files.js';

const touches = (command: string) =>
  shellFilesOf(command).map((t) => `${t.use} ${t.path}${t.movedTo ? ` → ${t.movedTo}` : ''}`);

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

  it('says nothing of a command it cannot read plainly, or whose output went elsewhere', () => {
    for (const command of [
      'cat > x.txt',
      'cat file >/dev/null',
      'cat a 1>b',
      'cat a &>b',
      "sed -i 's/a/b/' f",
      "sed -n '/foo/p' f",
      "sed -e '1p' f",
      'cat "$HOME/x"',
      'cat src/*.ts',
      'cat ~ann/notes',
      "cat 'unclosed",
      'ls -la src && find src -type f',
      'grep -n foo a.ts',
    ]) {
      expect([command, shellReadsOf(command)]).toEqual([command, []]);
    }
    // after a `cd`, in the folder it went to (Claude Code's `cd /abs/project && …`); in a subshell, or to a folder
    // not known, nothing more
    expect(shellReadsOf('cat a && cd sub && cat b && cd ../.. && cat c')).toEqual(['a', 'sub/b', 'sub/../../c']);
    expect(shellReadsOf('cd /home/u/proj\nhead -5 README.md && cd src && cat /etc/hosts x.ts')).toEqual([
      '/home/u/proj/README.md',
      '/etc/hosts',
      '/home/u/proj/src/x.ts',
    ]);
    for (const command of ['(cd sub && cat a)', 'cd && cat a', 'cd ~ann && cat a', 'cd - && cat a', 'cd "$D" && cat a'])
      expect([command, shellReadsOf(command)]).toEqual([command, []]);
    expect(shellReadsOf('cd ~ && cat a')).toEqual(['~/a']);
    expect(shellReadsOf('cat a; (cd sub && make) && cat b')).toEqual(['a']);
  });

  it('reads no command in a here-document, nor in a comment', () => {
    expect(shellReadsOf("python3 - <<'EOF'\nimport os\ncat secret.txt\nEOF\ncat real.txt")).toEqual(['real.txt']);
    expect(shellReadsOf('cat <<-END > notes.md\n\tcat inner.md\n\tEND\nhead -3 a.md')).toEqual(['a.md']);
    expect(shellReadsOf('# cat commented.md\ncat shown.md # and cat this.md')).toEqual(['shown.md']);
  });
});

describe('shellFilesOf: what a shell command plainly did to files', () => {
  it('writes what a redirection or tee sends to a file, and appends with >>', () => {
    expect(touches('echo "$(date)" > stamp.txt && printf x >> log/run.log')).toEqual([
      'write stamp.txt',
      'edit log/run.log',
    ]);
    expect(touches('npm test 2> err.log; make &> build.log; ls >&2; echo a 1>&2')).toEqual([
      'write err.log',
      'write build.log',
    ]);
    expect(touches('echo x | tee a.txt b.txt && echo y | tee -a c.txt >/dev/null')).toEqual([
      'write a.txt',
      'write b.txt',
      'edit c.txt',
    ]);
    // a name that expands is no file known here; nor is a descriptor
    expect(touches('echo x > "$OUT"; echo y > out-*.txt; echo z >&-')).toEqual([]);
  });

  it('writes the file a here-document is sent to (cat > file <<EOF), its body no command', () => {
    const script = "mkdir -p src && cat > src/app.py << 'EOF'\nrm -rf /\ncat x\nEOF\npython3 src/app.py";
    expect(touches(script)).toEqual(['write src/app.py']);
    expect(touches('cat <<EOF >> notes.md\nline\nEOF')).toEqual(['edit notes.md']);
  });

  it('edits in place with sed -i, as GNU and BSD write it', () => {
    expect(touches("sed -i 's/a/b/g' src/a.ts src/b.ts")).toEqual(['edit src/a.ts', 'edit src/b.ts']);
    expect(touches("sed -i '' -e 's/a/b/' mac.ts && sed -i.bak -E 's/x/y/' c.ts && sed -Ei 's/1/2/' d.ts")).toEqual([
      'edit mac.ts',
      'edit c.ts',
      'edit d.ts',
    ]);
    expect(touches("sed --in-place=.orig 's/a/b/' e.ts")).toEqual(['edit e.ts']);
  });

  it('deletes with rm and git rm, a folder by its name', () => {
    expect(touches('rm -f a.txt b/c.txt && rm -rf dist/ && rm -- -odd')).toEqual([
      'delete a.txt',
      'delete b/c.txt',
      'delete dist',
      'delete -odd',
    ]);
    expect(touches('git rm old.ts && git rm --cached kept.ts')).toEqual(['delete old.ts']);
    expect(touches('if [ -f x.lock ]; then rm x.lock; fi')).toEqual(['delete x.lock']);
    expect(touches('rm *.log; rm "$F"; rm $(ls)')).toEqual([]);
  });

  it("edits what git checkout -- and git restore put back as the repository had it (the worktree's copy)", () => {
    expect(touches('git checkout -- a.ts b.ts && git checkout HEAD~1 -- c.ts')).toEqual([
      'edit a.ts',
      'edit b.ts',
      'edit c.ts',
    ]);
    expect(touches('git restore d.ts && git restore --source=HEAD -W e.ts && git restore -s main f.ts')).toEqual([
      'edit d.ts',
      'edit e.ts',
      'edit f.ts',
    ]);
    // the index alone, a branch, the whole tree: no file of its own
    expect(touches('git restore --staged g.ts; git checkout main; git checkout feature .; git restore .')).toEqual([]);
  });

  it('moves with mv and git mv, into a folder by the name it ends in', () => {
    expect(touches('mv a.ts b.ts')).toEqual(['move a.ts → b.ts']);
    expect(touches('git mv src/old.ts src/new.ts')).toEqual(['move src/old.ts → src/new.ts']);
    expect(touches('mv a.ts b.ts lib')).toEqual(['move a.ts → lib/a.ts', 'move b.ts → lib/b.ts']);
    expect(touches('mv -f notes.md docs/ && mv -t archive x.log')).toEqual([
      'move notes.md → docs/notes.md',
      'move x.log → archive/x.log',
    ]);
    expect(touches('mv only-one')).toEqual([]);
  });

  it('writes the copy cp makes, and reads nothing of its source', () => {
    expect(touches('cp .env.example .env && cp -r templates/ out/')).toEqual(['write .env', 'write out/templates']);
  });

  it('joins a name after a cd to its folder, and says nothing of a script it cannot read', () => {
    expect(touches('rm a && cd sub && rm b > c && mv d ../e')).toEqual([
      'delete a',
      'write sub/c',
      'delete sub/b',
      'move sub/d → sub/../e',
    ]);
    expect(touches("echo 'unclosed > x")).toEqual([]);
    expect(touches('echo $(cat a > b')).toEqual([]);
    expect(touches('python build.py && ./run.sh && make install')).toEqual([]);
  });

  it('keeps a path in the home folder (`~/…`) as written, after a cd there too: the transcript names no home', () => {
    expect(touches('cat ~/.claude/projects/a.jsonl && cd ~/notes && rm b')).toEqual([
      'read ~/.claude/projects/a.jsonl',
      'delete ~/notes/b',
    ]);
    // joined to no working folder: the home is not the session's folder
    const call = {
      status: 'ok',
      result: undefined,
      toolKind: 'bash',
      typedInput: { command: 'head -1 ~/x/a; cat ../y' },
    };
    expect(filesTouchedBy(call as TouchingCall, '/home/user/proj').map((f) => f.path)).toEqual([
      '~/x/a',
      '/home/user/y',
    ]);
    expect(joinedPath('~/x/../a', '/home/user/proj')).toBe('~/a');
    // a `~` inside a word is a letter (an editor's backup file)
    expect(touches('cat notes.txt~ && rm ~')).toEqual(['read notes.txt~', 'delete ~']);
  });
});

describe('shellFilesOf in PowerShell (Codex on Windows, Copilot CLI): its cmdlets, and `\\` a separator', () => {
  const ps = (command: string) =>
    shellFilesOf(command, 'powershell').map((t) => `${t.use} ${t.path}${t.movedTo ? ` → ${t.movedTo}` : ''}`);

  it('reads what Get-Content printed, as Codex on Windows writes it', () => {
    expect(ps('Get-Content -Path src\\Ecommerce.API\\Program.cs')).toEqual(['read src\\Ecommerce.API\\Program.cs']);
    expect(ps('Get-Content restore-diag.log -Tail 180')).toEqual(['read restore-diag.log']);
    expect(ps('Get-Content src\\a.cs,src\\b.cs | Select-Object -First 40')).toEqual([
      'read src\\a.cs',
      'read src\\b.cs',
    ]);
    expect(ps('gc -LiteralPath "docs\\my notes.md" -Raw; type README.md; cat .gitignore')).toEqual([
      'read docs\\my notes.md',
      'read README.md',
      'read .gitignore',
    ]);
    // its output sent to a file: not read
    expect(ps('Get-Content a.txt > b.txt')).toEqual(['write b.txt']);
  });

  it('writes, appends, deletes, moves and copies by the cmdlets and their aliases', () => {
    expect(
      ps(
        "dotnet test tests\\A.Tests.csproj > test-output.log 2>&1; Set-Content -Path out.txt -Value 'x'; " +
          "Add-Content log.md 'more'; 'y' | Out-File -FilePath all.log -Append",
      ),
    ).toEqual(['write test-output.log', 'write out.txt', 'edit log.md', 'edit all.log']);
    expect(ps('Remove-Item restore-diag.log,test-output.log -ErrorAction SilentlyContinue')).toEqual([
      'delete restore-diag.log',
      'delete test-output.log',
    ]);
    expect(ps('Remove-Item Ecommerce.Domain -Recurse -Force; rm old.cs; del x.tmp')).toEqual([
      'delete Ecommerce.Domain',
      'delete old.cs',
      'delete x.tmp',
    ]);
    expect(ps('Move-Item -Path a.cs -Destination src\\a.cs; mv b.cs lib\\')).toEqual([
      'move a.cs → src\\a.cs',
      'move b.cs → lib\\b.cs',
    ]);
    expect(ps('Copy-Item appsettings.json appsettings.Development.json; git mv x.cs y.cs')).toEqual([
      'write appsettings.Development.json',
      'move x.cs → y.cs',
    ]);
  });

  it('joins a name after Set-Location to its folder; says nothing of a name that expands', () => {
    expect(ps('Set-Location src\\Api; Get-Content Program.cs; cd ..; Remove-Item $env:TEMP\\x; gc *.cs')).toEqual([
      'read src\\Api\\Program.cs',
    ]);
    expect(ps('Set-Location -Path C:\\work\\proj; Get-Content README.md')).toEqual(['read C:\\work\\proj\\README.md']);
    // a backquote is its escape
    expect(ps('Get-Content my` file.txt')).toEqual(['read my file.txt']);
  });

  it('reads a POSIX shell as before: `\\` escapes there', () => {
    expect(shellReadsOf('cat my\\ file.txt')).toEqual(['my file.txt']);
    expect(shellFilesOf('Get-Content a.txt')).toEqual([]);
  });
});
