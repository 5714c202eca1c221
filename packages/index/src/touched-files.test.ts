import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FileActivity, fileActivityOf, fileChanged } from '@agentdash/core/present';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import type { AgentIndex } from './index.js';
import { TOUCHED_FILES } from './read/touched-files.js';

const t = useTempIndex();

const PROJECT = '/home/user/proj/demo';

/** A session (one main file) of one file tool's call on `path`, with its result unless `answered` is false. */
function session(home: string, tool: 'Read' | 'Edit', path: string, answered = true, cwd?: string) {
  const id = nextSessionId();
  const at = basesOf(id);
  const b = (uuid: string, parent: string | null, second: number) => ({
    ...at(uuid, parent, second),
    ...(cwd === undefined ? {} : { cwd }),
  });
  const file = join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`);
  const input = tool === 'Read' ? { file_path: path } : { file_path: path, old_string: 'a', new_string: 'b' };
  const result = toolResult(b('r1', 'a1', 2), `toolu_${id.slice(0, 8)}`, 'done', false);
  writeLines(file, [
    prompt(b('u1', null, 0), `${tool} ${path}`),
    toolUse(b('a1', 'u1', 1), 'msg_1', `toolu_${id.slice(0, 8)}`, tool, input),
    ...(answered ? [result] : []),
  ]);
  return { id, file, result };
}

const ids = (index: AgentIndex, file: string) =>
  index
    .listSessions({ file })
    .map((s) => s.id)
    .sort();

/** How the index says each session touched `path`: 1 changed, 0 only read (or tried to change). */
function changedBySession(dbPath: string, path: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT f.session_id AS id, MAX(t.changed) AS changed FROM ${TOUCHED_FILES} t
         JOIN calls c ON c.tool_use_id = t.tool_use_id JOIN files f ON f.id = c.file_id
         WHERE t.path = ? GROUP BY f.session_id`,
      )
      .all(path) as { id: string; changed: number }[];
    return Object.fromEntries(rows.map((r) => [r.id.split('/').pop(), r.changed]));
  } finally {
    db.close();
  }
}

describe('sessions that touched a file', () => {
  it("finds a path as the Files page joins it, whatever the folder's end or an empty folder", async () => {
    const home = join(t.dir, 'home-folders');
    // A folder written with its separator (joined: a doubled one), a folder of none, a path mixing separators.
    const trailing = session(home, 'Read', 'src/a.ts', true, `${PROJECT}/`);
    const none = session(home, 'Read', 'lone.ts', true, '');
    const mixed = session(home, 'Read', 'C:\\p/b.ts', true, 'C:\\p');
    const homeFolder = session(home, 'Read', '~/notes/a.md', true, PROJECT);
    await t.index.refresh([home]);
    // in the home folder as a shell names it: as written, never in the session's folder (core's isAbsolutePath)
    expect(ids(t.index, '~/notes/a.md')).toEqual([homeFolder.id]);
    expect(ids(t.index, `${PROJECT}/~/notes/a.md`)).toEqual([]);
    expect(ids(t.index, `${PROJECT}//src/a.ts`)).toEqual([trailing.id]);
    expect(ids(t.index, '/src/a.ts')).toEqual([]);
    expect(ids(t.index, 'lone.ts')).toEqual([none.id]);
    expect(ids(t.index, 'C:\\p/b.ts')).toEqual([mixed.id]);
    // a Windows path asked with slashes, whole or by its end: the Files page writes it with backslashes
    expect(ids(t.index, 'C:/p/b.ts')).toEqual([mixed.id]);
    expect(ids(t.index, 'p/b.ts')).toEqual([mixed.id]);
  });

  it('lists the session that read it and the one that edited it, by path or by its end on whole segments', async () => {
    const home = join(t.dir, 'home');
    const read = session(home, 'Read', `${PROJECT}/src/app.ts`);
    const edited = session(home, 'Edit', `${PROJECT}/src/app.ts`);
    const other = session(home, 'Edit', `${PROJECT}/src/xapp.ts`);
    await t.index.refresh([home]);

    const both = [read.id, edited.id].sort();
    expect(ids(t.index, `${PROJECT}/src/app.ts`)).toEqual(both);
    expect(ids(t.index, 'src/app.ts')).toEqual(both);
    expect(ids(t.index, './src/app.ts')).toEqual(both);
    expect(ids(t.index, 'app.ts')).toEqual(both);
    expect(ids(t.index, 'xapp.ts')).toEqual([other.id]);
    // Not a whole segment, not an absolute path's end, not a file anyone touched.
    expect(ids(t.index, 'pp.ts')).toEqual([]);
    expect(ids(t.index, '/src/app.ts')).toEqual([]);
    expect(ids(t.index, `${PROJECT}/src/nobody.ts`)).toEqual([]);
    // With the other filters.
    expect(t.index.listSessions({ file: 'app.ts', since: '2030-01-01' })).toEqual([]);

    const dbPath = join(t.dir, 'db', 'index.sqlite');
    expect(changedBySession(dbPath, `${PROJECT}/src/app.ts`)).toEqual({ [read.id]: 0, [edited.id]: 1 });
  });

  it('finds a path a call wrote relative, in a record naming no folder, as the Files page joins it', async () => {
    const home = join(t.dir, 'home');
    const id = nextSessionId();
    const b = basesOf(id);
    const file = join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`);
    const noFolder = (line: string) => {
      const { cwd: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    writeLines(file, [
      prompt(b('u1', null, 0), 'Read a file by its relative path'),
      noFolder(toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_rel', 'Read', { file_path: 'src/rel.ts' })),
      noFolder(toolResult(b('r1', 'a1', 2), 'toolu_rel', 'done', false)),
    ]);
    await t.index.refresh([home]);
    const loaded = await t.index.loadSession(id);
    const [page] = fileActivityOf(loaded.calls, loaded.projectPath);
    expect(page?.path).toBe(`${PROJECT}/src/rel.ts`);
    expect(ids(t.index, `${PROJECT}/src/rel.ts`)).toEqual([id]);
    expect(ids(t.index, 'src/rel.ts')).toEqual([id]);
    expect(ids(t.index, '/home/user/proj/other/src/rel.ts')).toEqual([]);
  });

  it('follows a file as it grows and is written again: a result appended changes it, a new read replaces it', async () => {
    const home = join(t.dir, 'home');
    const read = session(home, 'Read', `${PROJECT}/src/app.ts`);
    // The edit's result is not written yet: a call that changed nothing so far.
    const edited = session(home, 'Edit', `${PROJECT}/src/app.ts`, false);
    await t.index.refresh([home]);
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    expect(changedBySession(dbPath, `${PROJECT}/src/app.ts`)).toEqual({ [read.id]: 0, [edited.id]: 0 });

    appendFileSync(edited.file, `${edited.result}\n`);
    await t.index.refresh([home]);
    expect(changedBySession(dbPath, `${PROJECT}/src/app.ts`)).toEqual({ [read.id]: 0, [edited.id]: 1 });

    // Written again (read from byte 0, its rows dropped): it reads another file now.
    const b = basesOf(read.id);
    writeLines(read.file, [
      prompt(b('u1', null, 0), 'Read another file'),
      toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_again', 'Read', { file_path: `${PROJECT}/src/other.ts` }),
      toolResult(b('r1', 'a1', 2), 'toolu_again', 'done', false),
    ]);
    await t.index.refresh([home]);
    expect(ids(t.index, 'src/app.ts')).toEqual([edited.id]);
    expect(ids(t.index, 'src/other.ts')).toEqual([read.id]);
  });
});

const corpusRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus');
const corpusHome = join(corpusRoot, '2.1.330', 'claude-home');

describe.skipIf(!existsSync(corpusHome))('sessions that touched a file, over the corpus', () => {
  it("lists a session for exactly the files of its Files page (core's fileActivityOf), changed alike", async () => {
    await t.index.refresh([corpusHome]);
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    const pages = new Map<string, FileActivity[]>();
    for (const summary of t.index.listSessions({ paths: [corpusHome] })) {
      const loaded = await t.index.loadSession(summary.id);
      pages.set(summary.id, fileActivityOf(loaded.calls, loaded.projectPath));
    }
    const paths = new Set([...pages.values()].flatMap((files) => files.map((f) => f.path)));
    expect(paths.size).toBeGreaterThan(50);
    for (const path of paths) {
      const changed = changedBySession(dbPath, path);
      // Each session whose Files page has the file, and no other; changed as the page says.
      const expected = [...pages].filter(([, files]) => files.some((f) => f.path === path));
      expect(ids(t.index, path), path).toEqual(expected.map(([id]) => id).sort());
      for (const [id, files] of expected) {
        const file = files.find((f) => f.path === path);
        expect(changed[id], `${id} ${path}`).toBe(file !== undefined && fileChanged(file) ? 1 : 0);
      }
    }
  });
});
