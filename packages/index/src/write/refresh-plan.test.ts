import type { DiscoveredFile } from '@agentdash/core';
import { describe, expect, test } from 'vitest';
import type { ArchivedFileRow } from '../archive/archive.js';
import { type PlanInput, planRefresh, type StoredFile } from './refresh-plan.js';

const home = '/h/projects';

function file(name: string, mtimeMs: number, extra: Partial<DiscoveredFile> = {}): DiscoveredFile {
  return {
    path: `${home}/p/${name}.jsonl`,
    agent: 'claude',
    projectDir: `${home}/p`,
    role: 'main',
    sessionId: name,
    agentId: undefined,
    metaPath: undefined,
    size: 100,
    mtimeMs,
    ino: mtimeMs,
    ...extra,
  };
}

/** The stored row of a file read whole as it is now. */
function storedAs(f: DiscoveredFile, extra: Partial<StoredFile> = {}): StoredFile {
  return {
    path: f.path,
    session_id: `${f.projectDir}/${f.sessionId}`,
    size: f.size,
    mtime_ms: f.mtimeMs,
    ino: f.ino,
    parsed_offset: f.size,
    archived: 0,
    meta_path: f.metaPath ?? null,
    agent: 'claude',
    ...extra,
  };
}

function archivedRow(f: DiscoveredFile): ArchivedFileRow {
  return {
    path: f.path,
    project_dir: f.projectDir,
    role: f.role,
    session_id: f.sessionId ?? null,
    agent_id: null,
    meta_path: null,
    file_size: f.size,
    mtime_ms: f.mtimeMs,
    ino: f.ino,
    archived_bytes: f.size,
    agent: f.agent,
    headless: f.headless === true ? 1 : 0,
  };
}

function plan(input: Partial<PlanInput> & Pick<PlanInput, 'discovered'>) {
  const stored = input.stored ?? [];
  return planRefresh({
    roots: [home],
    stored,
    storedByPath: new Map(stored.map((s) => [s.path, s])),
    archived: new Map(),
    archivedFile: () => undefined,
    archiving: true,
    exists: () => false,
    hiddenByPermissions: () => false,
    ...input,
  });
}

describe('the plan of a refresh', () => {
  test('reads the newest sessions first, a session’s files together, and every new file ahead in that order', () => {
    const old = file('old', 1_000);
    const newest = file('new', 3_000);
    const sub = file('agent-1', 500, { sessionId: 'old', role: 'subagent', agentId: '1' });
    const p = plan({ discovered: [old, newest, sub] });
    expect(p.steps.map((s) => s.file.path)).toEqual([newest.path, sub.path, old.path]);
    expect(p.readAhead.map((f) => f.path)).toEqual([newest.path, sub.path, old.path]);
    expect(p.readAheadBytes).toBe(300);
    expect(p.bytesTotal).toBe(300);
    expect(p.steps.every((s) => s.import && !s.unchangedOnDisk && !s.source.fromArchive)).toBe(true);
  });

  test('leaves unchanged files to a readability check and reads a grown one, not ahead (a worker reads from 0)', () => {
    const same = file('same', 1_000);
    const grown = file('grown', 2_000);
    const p = plan({
      discovered: [same, grown],
      stored: [storedAs(same), storedAs(grown, { size: 50 })],
      archived: new Map([[same.path, same.size]]),
    });
    expect(p.steps.map((s) => [s.file.path, s.import, s.unchangedOnDisk])).toEqual([
      [grown.path, true, false],
      [same.path, false, true],
    ]);
    expect(p.readAhead).toEqual([]);
  });

  test('archives an unchanged file whose bytes the archive does not hold yet, only while archiving', () => {
    const same = file('same', 1_000);
    const input = { discovered: [same], stored: [storedAs(same)], archived: new Map([[same.path, 40]]) };
    expect(plan(input).steps.map((s) => s.import)).toEqual([true]);
    expect(plan({ ...input, archiving: false }).steps.map((s) => s.import)).toEqual([false]);
  });

  test('reads an archived file gone from disk from the archive, and drops one gone that is not archived', () => {
    const kept = file('kept', 1_000);
    const lost = file('lost', 2_000);
    const p = plan({
      discovered: [],
      stored: [storedAs(kept), storedAs(lost)],
      archived: new Map([[kept.path, kept.size]]),
      archivedFile: (path) => (path === kept.path ? archivedRow(kept) : undefined),
    });
    expect(p.gone).toEqual([lost.path]);
    expect(p.fromArchive.map((f) => f.path)).toEqual([kept.path]);
    expect(p.steps.map((s) => [s.file.path, s.source.fromArchive, s.unchangedOnDisk, s.import])).toEqual([
      // Stored as read from disk: its archived flag changes.
      [kept.path, true, false, true],
    ]);
    expect(p.readAhead).toEqual([]);
  });

  test('keeps a stored file in a folder it cannot look into, and one outside the roots still on disk', () => {
    const hidden = file('hidden', 1_000);
    const outside = { ...file('outside', 1_000), path: '/elsewhere/outside.jsonl' };
    const p = plan({
      discovered: [],
      stored: [storedAs(hidden), storedAs(outside)],
      hiddenByPermissions: (path) => path === hidden.path,
      exists: (path) => path === outside.path,
    });
    expect(p.gone).toEqual([]);
  });

  test('an archived file still on disk but not discovered is not read from the archive', () => {
    const f = file('f', 1_000);
    const p = plan({
      discovered: [],
      archived: new Map([[f.path, f.size]]),
      archivedFile: () => archivedRow(f),
      exists: () => true,
    });
    expect(p.fromArchive).toEqual([]);
  });

  test('notes a subagent meta file that appeared, and marks files named on the command line', () => {
    const sub = file('agent-1', 1_000, { role: 'subagent', metaPath: `${home}/p/agent-1.meta.json` });
    const p = plan({ discovered: [sub], stored: [storedAs(sub, { meta_path: null })], roots: [sub.path] });
    expect(p.metaPaths).toEqual([{ path: sub.path, metaPath: sub.metaPath }]);
    expect(p.steps.map((s) => s.explicit)).toEqual([true]);
  });
});
