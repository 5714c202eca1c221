/**
 * A session's files, against the transcripts read independently here (each tool_use's path, each result's
 * is_error), on the bundled samples, and against what the Codex fixture's patches did (created, moved, deleted).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from '../session/load-session.js';
import { FILE_CALL_IDS, fileActivityOf, fileChanged } from './file-activity.js';
import { joinedPath, relativePath } from './paths.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');
const fixtures = resolve(here, '../../test/fixtures');
const FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

async function sessionsOf(home: string) {
  const groups = groupSessions((await discoverAll([home])).files);
  return Promise.all(groups.map((group) => loadSession(group)));
}

/** Per file path: its file tools' calls and failures, read from the JSONL with nothing of core's. */
function rawCounts(path: string): Map<string, { calls: number; failed: number }> {
  const uses = new Map<string, string>();
  const failed = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Record<string, unknown>[]) {
      const input = block.input as Record<string, unknown> | undefined;
      const file = input?.file_path ?? input?.notebook_path;
      if (block.type === 'tool_use' && FILE_TOOLS.has(String(block.name)) && typeof file === 'string')
        uses.set(String(block.id), file);
      if (block.type === 'tool_result' && block.is_error === true) failed.add(String(block.tool_use_id));
    }
  }
  const out = new Map<string, { calls: number; failed: number }>();
  for (const [id, file] of uses) {
    const c = out.get(file) ?? { calls: 0, failed: 0 };
    c.calls += 1;
    if (failed.has(id)) c.failed += 1;
    out.set(file, c);
  }
  return out;
}

describe("a session's files", () => {
  it('count each file its tools read, wrote and edited, and their failures, as the transcripts hold them', async () => {
    let files = 0;
    for (const session of await sessionsOf(samples)) {
      const main = session.files.filter((f) => f.role === 'main').map((f) => f.path);
      // the main file's calls alone (its sidechains' included), so the raw reading needs no subagent file
      const calls = session.calls.filter((c) => main.includes(c.loc.file));
      const got = new Map(fileActivityOf(calls).map((f) => [f.path, { calls: f.calls, failed: f.failed }]));
      const raw = new Map(main.flatMap((path) => [...rawCounts(path)]));
      expect(got, session.id).toEqual(raw);
      files += got.size;
    }
    expect(files).toBeGreaterThan(15);
  });

  it('say what became of each file: lines, creations, reads and edits apart, changed files first', async () => {
    const session = (await sessionsOf(samples)).find((s) => s.projectPath === '/home/user/proj/files');
    const files = fileActivityOf(session?.calls ?? []);
    const of = (name: string) => files.find((f) => f.path === `/home/user/proj/files/${name}`);
    // 1 read, 5 edits of which 3 failed: 2 edits that worked, +1 -1 and +2 -2; 6 calls
    expect(of('edit-me.txt')).toMatchObject({ reads: 1, edits: 2, writes: 0, failed: 3, linesAdded: 3, calls: 6 });
    expect(of('edit-me.txt')?.linesRemoved).toBe(3);
    expect(of('created.txt')).toMatchObject({ created: true, writes: 1, linesAdded: 2, linesRemoved: 0 });
    // a 30-line file overwritten with one line
    expect(of('notes.txt')).toMatchObject({ reads: 3, writes: 1, created: false, linesAdded: 1, linesRemoved: 30 });
    expect(of('demo.ipynb')).toMatchObject({ reads: 2, edits: 2, failed: 1, calls: 5 });
    // a read that failed read nothing; an edit that failed changed nothing: not a changed file
    expect(of('missing.txt')).toMatchObject({ reads: 0, failed: 1, edits: 0, calls: 1 });
    expect(fileChanged(of('missing.txt')!)).toBe(false);
    const firstRead = files.findIndex((f) => !fileChanged(f));
    expect(files.slice(0, firstRead).every(fileChanged)).toBe(true);
    expect(files.slice(firstRead).some(fileChanged)).toBe(false);
    const paths = (list: typeof files) => list.map((f) => f.path);
    expect(paths(files.slice(0, firstRead))).toEqual([...paths(files.slice(0, firstRead))].sort());
    // each call's id once, in the session's order
    const edit = of('edit-me.txt');
    const order: string[] = session?.calls.map((c) => c.id) ?? [];
    const places = edit?.callIds.map((id) => order.indexOf(id)) ?? [];
    expect(places).toEqual([...new Set(places)].sort((a, b) => a - b));
    expect(places).toHaveLength(6);
  });

  it("follow a Codex patch's files: added, updated, moved, deleted, and a patch that failed", async () => {
    const sessions = await sessionsOf(join(fixtures, 'codex'));
    const session = sessions.find((s) => s.projectPath === '/home/user/proj/patch');
    const files = fileActivityOf(session?.calls ?? [], session?.projectPath);
    const of = (name: string) => files.find((f) => f.path === `/home/user/proj/patch/${name}`);
    expect(of('hello.txt')).toMatchObject({ created: true, writes: 1, edits: 1 });
    expect(of('move-me.txt')?.movedTo).toBe('/home/user/proj/patch/moved/moved.txt');
    expect(of('old.txt')).toMatchObject({ deleted: true, edits: 0, writes: 0 });
    expect(of('nope/missing.txt')).toMatchObject({ failed: 1, created: false, edits: 0, calls: 1 });
    expect(fileChanged(of('nope/missing.txt')!)).toBe(false);
    // app.txt: one patch worked, one failed; then the shell printed it (`cat hello.txt app.txt moved/moved.txt`)
    expect(of('app.txt')).toMatchObject({ edits: 1, failed: 1, reads: 1, calls: 3 });
    // created where the patch moved it (it read as not changed, with only the shell's read), then read
    expect(of('moved/moved.txt')).toMatchObject({ created: true, writes: 0, edits: 0, reads: 1, calls: 2 });
    expect(fileChanged(of('moved/moved.txt')!)).toBe(true);
  });

  it('take one file written two ways for one', () => {
    expect(joinedPath('src/../lib/a.ts', '/home/user/proj')).toBe('/home/user/proj/lib/a.ts');
    expect(joinedPath('/home/user/proj/git-sync/../cli/CHANGELOG.md')).toBe('/home/user/proj/cli/CHANGELOG.md');
    expect(joinedPath('./a.ts', '/home/user/proj/')).toBe('/home/user/proj/a.ts');
    expect(joinedPath('src\\a.ts', 'C:\\work\\proj')).toBe('C:\\work\\proj\\src\\a.ts');
    expect(joinedPath('C:\\work\\proj\\..\\other\\a.ts')).toBe('C:\\work\\other\\a.ts');
    // a Codex patch's `src/a.ts` in a Windows folder is PowerShell's `src\a.ts` (and a Read's `C:/work/…`)
    expect(joinedPath('src/a.ts', 'C:\\work\\proj')).toBe('C:\\work\\proj\\src\\a.ts');
    expect(joinedPath('C:/work/proj/src/a.ts')).toBe('C:\\work\\proj\\src\\a.ts');
    expect(joinedPath('relative/only.ts')).toBe('relative/only.ts');
    expect(relativePath('/home/user/proj/src/a.ts', '/home/user/proj/')).toBe('src/a.ts');
    expect(relativePath('/home/user/project/a.ts', '/home/user/proj')).toBe('/home/user/project/a.ts');
    expect(relativePath('C:\\work\\proj\\a.ts', 'C:\\work\\proj')).toBe('a.ts');
  });

  it('join relative paths to the working folder, and link at most FILE_CALL_IDS calls of a file', async () => {
    const sessions = await sessionsOf(join(fixtures, 'gemini'));
    const relative = sessions.find((s) => s.calls.some((c) => c.typedInput?.filePath === 'src/app.js'));
    expect(relative).toBeDefined();
    const paths = fileActivityOf(relative?.calls ?? [], '/home/user/proj/here').map((f) => f.path);
    expect(paths).toContain('/home/user/proj/here/src/app.js');
    expect(paths).not.toContain('src/app.js');
    // one file read more often than the ids kept
    const read = relative?.calls.find((c) => c.typedInput?.filePath === 'src/app.js');
    const many = Array.from({ length: FILE_CALL_IDS + 5 }, (_, i) => ({ ...read!, id: `${read!.id}-${i}` as never }));
    const [file] = fileActivityOf(many, '/home/user/proj/here');
    expect([file?.calls, file?.callIds.length, file?.reads]).toEqual([
      FILE_CALL_IDS + 5,
      FILE_CALL_IDS,
      FILE_CALL_IDS + 5,
    ]);
  });

  it("count a patch Codex ran through its shell tool (≤0.2x: `command: ['apply_patch', …]`)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-legacy-patch-'));
    try {
      const id = '8b2b1191-fa67-43cc-ba56-54a20dca0a95';
      const folder = join(dir, 'sessions', '2025', '08', '25');
      mkdirSync(folder, { recursive: true });
      const patch =
        '*** Begin Patch\n*** Update File: src/app.rs\n@@\n fn main() {\n-    old();\n+    new();\n+    more();\n }\n*** End Patch\n';
      const cwd = '<environment_context>\nCurrent working directory: /home/user/proj/legacy\n</environment_context>';
      // as the wild set's 2025-08 rollout writes it (its one such call failed in the sandbox; this one worked)
      const lines = [
        { id, timestamp: '2025-08-25T13:19:59.315Z', instructions: null },
        { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: cwd }] },
        { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'Change main.' }] },
        {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['apply_patch', patch] }),
          call_id: 'c1',
        },
        {
          type: 'function_call_output',
          call_id: 'c1',
          output: JSON.stringify({
            output: 'Success. Updated the following files:\nM src/app.rs\n',
            metadata: { exit_code: 0 },
          }),
        },
      ];
      writeFileSync(
        join(folder, `rollout-2025-08-25T13-19-59-${id}.jsonl`),
        lines.map((l) => JSON.stringify(l)).join('\n'),
      );
      const [session] = await sessionsOf(dir);
      expect(session?.calls.map((c) => [c.name, c.toolKind, c.result?.typed.kind])).toEqual([
        ['shell', 'bash', 'patch'],
      ]);
      // Before: a shell call was no file tool's, and the session listed no file; and the working folder the
      // environment context names ("Current working directory: …", ≤0.2x) was not read: the session had no project.
      expect(session?.projectPath).toBe('/home/user/proj/legacy');
      expect(fileActivityOf(session?.calls ?? [], session?.projectPath)).toMatchObject([
        { path: '/home/user/proj/legacy/src/app.rs', edits: 1, writes: 0, linesAdded: 2, linesRemoved: 1, calls: 1 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('follow what a shell command plainly did: wrote, deleted, wrote again, moved (a real shell call, other commands)', async () => {
    const sessions = await sessionsOf(samples);
    const shell = sessions.flatMap((s) => s.calls).find((c) => c.toolKind === 'bash' && c.status === 'ok');
    expect(shell?.typedInput?.command).toBeTypeOf('string');
    const run = (command: string, n: number, status: 'ok' | 'error' = 'ok') =>
      ({
        ...shell!,
        id: `${shell!.id}-${n}`,
        status,
        typedInput: { ...shell!.typedInput, command },
      }) as typeof shell & {};
    const calls = [
      run("cat > gen.txt <<'EOF'\nrm -rf keep.txt\nEOF", 1),
      run('rm -f gen.txt old.txt', 2),
      run('echo again > gen.txt && sed -i "s/a/b/" keep.txt', 3),
      run('mv gen.txt final.txt', 4),
      // moved into folders: no file of those names made
      run('mv notes.txt build && mv todo.txt ..', 6),
      run('rm keep.txt', 5, 'error'),
    ];
    const files = fileActivityOf(calls, '/home/user/proj');
    const of = (name: string) => files.find((f) => f.path === `/home/user/proj/${name}`);
    // gen.txt written, deleted, written again (so not deleted), then moved
    expect(of('gen.txt')).toMatchObject({ writes: 2, edits: 1, deleted: false, calls: 4 });
    expect(of('gen.txt')?.movedTo).toBe('/home/user/proj/final.txt');
    expect(of('old.txt')).toMatchObject({ deleted: true, calls: 1 });
    // edited in place; a shell call that failed says nothing (its exit may be any of its commands'), and a
    // here-document's body is no command
    expect(of('keep.txt')).toMatchObject({ edits: 1, deleted: false, failed: 0, calls: 1 });
    // final.txt: created by the move (neither written nor edited)
    expect(of('final.txt')).toMatchObject({ created: true, writes: 0, edits: 0, calls: 1 });
    expect(of('build')).toBeUndefined();
    expect(files.some((f) => f.path === '/home/user' && f.created)).toBe(false);
    expect(files.filter(fileChanged).map((f) => f.path.slice('/home/user/proj/'.length))).toEqual([
      'final.txt',
      'gen.txt',
      'keep.txt',
      'notes.txt',
      'old.txt',
      'todo.txt',
    ]);
  });
});
