import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesHome } from '../../test/helpers.js';
import { NotTranscriptError, PathNotFoundError } from '../errors.js';
import { defaultClaudeHome, discoverFiles, groupSessions } from './discover.js';

const projects = join(samplesHome, 'projects');
const subagentsProject = join(projects, '-home-user-proj-subagents');
const session2130 = '410c10d6-fdc3-4c91-bc4f-74b883942e01';

describe('discoverFiles', () => {
  it('finds the same files from a Claude home and from its projects folder', async () => {
    const fromHome = await discoverFiles([samplesHome]);
    const fromProjects = await discoverFiles([projects]);
    expect(fromHome.files.map((f) => f.path)).toEqual(fromProjects.files.map((f) => f.path));
    expect(fromHome.issues).toEqual([]);
    expect(new Set(fromHome.files.map((f) => f.projectDir)).size).toBe(12);
  });

  it('finds subagent files in both layouts and attaches them to their session', async () => {
    const { files } = await discoverFiles([subagentsProject]);
    const groups = groupSessions(files);
    const bySession = Object.fromEntries(groups.map((g) => [g.sessionId, g.subagents.map((s) => s.agentId).sort()]));
    // 2.1.x: <session>/subagents/agent-<id>.jsonl (+ .meta.json)
    expect(bySession[session2130]).toEqual([
      'a6f077947b965e76e',
      'ab803f6513f82f68e',
      'aceae7f385bbb67a7',
      'afc6b8f262420045d',
    ]);
    // 2.0.x: agent-<id>.jsonl beside the session, session id read from the records
    expect(bySession['3d438771-f9d6-4a92-9daa-79a2c6f7cc27']).toEqual([
      'a351702',
      'a997c70',
      'aa4a751',
      'abc0ab0',
      'adf0b3e',
      'ae0b871',
    ]);
    // ≤2.0.27: sidechains live inside the main file
    expect(bySession['8f0808b5-a7f3-4708-8e86-3eac81d4c7d1']).toEqual([]);
    const withMeta = files.filter((f) => f.metaPath !== undefined);
    expect(withMeta.length).toBe(4);
  });

  it('takes a known session id for a flat agent file instead of reading it, and reads the file otherwise', async () => {
    const asked: string[] = [];
    const { files } = await discoverFiles([subagentsProject], {
      knownSessionId: (path) => {
        asked.push(path);
        // another session of the folder (a known id whose session has no file, or an empty one, is checked)
        return path.endsWith('agent-a351702.jsonl') ? session2130 : undefined;
      },
    });
    const flat = files.filter((f) => f.role === 'subagent' && !f.path.includes('/subagents/'));
    expect(flat.map((f) => [f.agentId, f.sessionId])).toEqual([
      ['a351702', session2130],
      ['a997c70', '3d438771-f9d6-4a92-9daa-79a2c6f7cc27'],
      ['aa4a751', '3d438771-f9d6-4a92-9daa-79a2c6f7cc27'],
      ['abc0ab0', '3d438771-f9d6-4a92-9daa-79a2c6f7cc27'],
      ['adf0b3e', '3d438771-f9d6-4a92-9daa-79a2c6f7cc27'],
      ['ae0b871', '3d438771-f9d6-4a92-9daa-79a2c6f7cc27'],
    ]);
    // Only flat agent files need it: nested ones take the id from their <session>/subagents/ folder.
    expect(asked.length).toBe(flat.length);
  });

  it('accepts single .jsonl files and a session folder on its own', async () => {
    const one = await discoverFiles([join(subagentsProject, `${session2130}.jsonl`)]);
    expect(one.files.map((f) => [f.role, f.sessionId])).toEqual([['main', session2130]]);
    const folder = await discoverFiles([join(subagentsProject, session2130)]);
    expect(folder.files.length).toBeGreaterThan(4);
  });

  it('fails clearly on a missing path or a file that is not a transcript', async () => {
    await expect(discoverFiles([join(projects, 'nope')])).rejects.toBeInstanceOf(PathNotFoundError);
    await expect(
      discoverFiles([join(subagentsProject, session2130, 'subagents', 'agent-ab803f6513f82f68e.meta.json')]),
    ).rejects.toBeInstanceOf(NotTranscriptError);
  });

  it('uses $CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    expect(defaultClaudeHome({ CLAUDE_CONFIG_DIR: '/cfg' }, '/home/u')).toBe('/cfg');
    expect(defaultClaudeHome({}, '/home/u')).toBe(join('/home/u', '.claude'));
  });
});

describe('a session folder without its main file', () => {
  it('is found from the home, from its project folder and from the file, in the same project folder', async () => {
    const home = await mkdtemp(join(tmpdir(), 'agentdash-orphan-'));
    try {
      const project = join(home, 'projects', 'p');
      const agentFile = join(project, 'sess-1', 'subagents', 'agent-a1.jsonl');
      await mkdir(join(project, 'sess-1', 'subagents'), { recursive: true });
      await writeFile(agentFile, '{"type":"user","uuid":"u1","sessionId":"sess-1","message":{"content":"hi"}}\n');
      for (const input of [home, join(home, 'projects'), project, agentFile]) {
        const groups = groupSessions((await discoverFiles([input])).files);
        expect(
          groups.map((g) => [g.sessionId, g.projectDir, g.main, g.subagents.map((s) => s.path)]),
          input,
        ).toEqual([['sess-1', project, undefined, [agentFile]]]);
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a stray .jsonl file directly in projects/', () => {
  it('is found as a loose transcript, and every project folder is still found, from the home and from projects/', async () => {
    const home = await mkdtemp(join(tmpdir(), 'agentdash-stray-'));
    try {
      const projectsDir = join(home, 'projects');
      const stray = join(projectsDir, 'notes.jsonl');
      const main = join(projectsDir, '-home-u-a', 'sess-a.jsonl');
      const agentFile = join(projectsDir, '-home-u-b', 'sess-b', 'subagents', 'agent-b1.jsonl');
      await mkdir(join(projectsDir, '-home-u-a'), { recursive: true });
      await mkdir(join(projectsDir, '-home-u-b', 'sess-b', 'subagents'), { recursive: true });
      await writeFile(stray, '{"note":"not a transcript"}\n');
      await writeFile(main, '{"type":"user","uuid":"u1","sessionId":"sess-a","message":{"content":"hi"}}\n');
      await writeFile(agentFile, '{"type":"user","uuid":"u2","sessionId":"sess-b","message":{"content":"hi"}}\n');
      const expected = [
        ['notes', projectsDir, stray, []],
        ['sess-a', join(projectsDir, '-home-u-a'), main, []],
        ['sess-b', join(projectsDir, '-home-u-b'), undefined, [agentFile]],
      ];
      for (const input of [home, projectsDir]) {
        const { files, issues } = await discoverFiles([input]);
        const groups = groupSessions(files).sort((a, b) => a.sessionId.localeCompare(b.sessionId));
        expect(
          groups.map((g) => [g.sessionId, g.projectDir, g.main?.path, g.subagents.map((f) => f.path)]),
          input,
        ).toEqual(expected);
        expect(issues).toEqual([]);
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a folder that holds homes', () => {
  it('is read as those homes, up to six levels down, never its own .jsonl files as sessions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-homes-'));
    try {
      // As ../shared/corpus/<version>/ is laid out: a home beside a log of JSON lines that is no transcript.
      const session = (home: string, id: string) => join(home, 'projects', '-home-user-p', `${id}.jsonl`);
      const line = (id: string) =>
        `${JSON.stringify({ type: 'user', sessionId: id, uuid: `u-${id}`, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } })}\n`;
      for (const [version, id] of [
        ['1.0', '11111111-1111-4111-8111-111111111111'],
        ['2.0', '22222222-2222-4222-8222-222222222222'],
      ] as const) {
        const home = join(dir, version, version === '1.0' ? 'claude-home' : '.claude');
        await mkdir(join(home, 'projects', '-home-user-p'), { recursive: true });
        await writeFile(session(home, id), line(id));
        await writeFile(join(dir, version, 'truth.jsonl'), '{"served":1}\n');
      }
      const ids = async (path: string) =>
        groupSessions((await discoverFiles([path])).files)
          .map((g) => g.sessionId)
          .sort();
      // Before: `truth` alone, from each version folder.
      expect(await ids(join(dir, '1.0'))).toEqual(['11111111-1111-4111-8111-111111111111']);
      expect(await ids(join(dir, '2.0'))).toEqual(['22222222-2222-4222-8222-222222222222']);
      expect(await ids(dir)).toEqual(['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222']);
      // Deeper: a folder of such folders, beside a home one level down (the search goes on past the first home).
      const deeper = join(dir, 'all');
      await mkdir(join(deeper, 'corpus'), { recursive: true });
      await cp(join(dir, '1.0'), join(deeper, 'corpus', '1.0'), { recursive: true });
      await cp(join(dir, '2.0', '.claude'), join(deeper, '.claude'), { recursive: true });
      await writeFile(join(deeper, 'corpus', 'notes.jsonl'), '{"note":1}\n');
      // Before: the home three levels down (all/corpus/1.0/claude-home) was not looked for.
      expect(await ids(deeper)).toEqual([
        '11111111-1111-4111-8111-111111111111',
        '22222222-2222-4222-8222-222222222222',
      ]);
      // A project folder given on its own is still one.
      expect(await ids(join(dir, '1.0', 'claude-home', 'projects', '-home-user-p'))).toEqual([
        '11111111-1111-4111-8111-111111111111',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
