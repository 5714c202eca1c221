import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeFixtures } from '../../test/helpers.js';
import { claudeCodeAdapter } from '../adapters/claude-code/adapter.js';
import type { RecordEvent } from '../model/raw.js';
import type { AgentAdapter } from './adapter.js';
import { type ConformanceCheck, conformanceCases } from './conformance.js';

/** The suite must be able to fail: each broken adapter below fails the check written against its fault. */
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdash-conformance-broken-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const base = claudeCodeAdapter;
const mapEvents =
  (map: (event: RecordEvent, index: number) => RecordEvent | undefined): AgentAdapter['streamRecords'] =>
  (file, onEvent, options) => {
    let index = 0;
    return base.streamRecords(
      file,
      (event) => {
        const mapped = map(event, index++);
        if (mapped) onEvent(mapped);
      },
      options,
    );
  };

const broken: Record<ConformanceCheck, Partial<AgentAdapter>> = {
  'recognizes its fixtures and nothing else': { recognizes: async () => true },
  'discovers its fixtures, each file carrying its agent': {
    discover: async (root, options) => {
      const found = await base.discover(root, options);
      return { ...found, files: found.files.map((f) => ({ ...f, agent: 'gemini' as const })) };
    },
  },
  'never throws on hostile input': {
    streamRecords: async (file, onEvent, options) => {
      if (file.size < 64) throw new Error('too short');
      return base.streamRecords(file, onEvent, options);
    },
  },
  'accounts for every line as a record or an issue': {
    streamRecords: mapEvents((event, index) => (index % 5 === 4 ? undefined : event)),
  },
  'pairs every tool call or reports it': {
    streamRecords: mapEvents((event) =>
      event.kind === 'record' && event.record.kind === 'user' && typeof event.record.content !== 'string'
        ? {
            ...event,
            record: { ...event.record, content: event.record.content.filter((b) => b.kind !== 'tool-result') },
          }
        : event,
    ),
  },
  'types every result onto a kind that validates': {
    typeResult: (call, raw) => ({ ...base.typeResult(call, raw), typed: { kind: 'bash', tool: call.name } as never }),
  },
  'gives the same ids on two reads': {
    streamRecords: mapEvents((event) =>
      event.kind === 'record' && 'uuid' in event.record
        ? { ...event, record: { ...event.record, uuid: `${Math.random()}` as never } }
        : event,
    ),
  },
  'declares its label and how its CLI resumes': { label: ' ', resume: [] },
  'resumes from an offset as a whole read does': {
    streamRecords: (file, onEvent, options) => base.streamRecords(file, onEvent, { ...options, startOffset: 0 }),
  },
  // Replays the file from its start and emits from the offset on (as Codex does), while declaring lines stand alone.
  'reads a record back from its offset alone': {
    streamRecords: (file, onEvent, options) =>
      base.streamRecords(
        file,
        (event) => {
          if (event.kind !== 'record' || (event.record.loc.offset ?? 0) >= (options?.startOffset ?? 0)) onEvent(event);
        },
        { ...options, startOffset: 0, startLine: 1 },
      ),
  },
};

describe('the conformance suite catches a broken adapter', () => {
  it.each(Object.entries(broken) as [ConformanceCheck, Partial<AgentAdapter>][])('%s', async (check, fault) => {
    const adapter: AgentAdapter = { ...base, ...fault };
    const found = conformanceCases({ adapter, fixtures: [claudeFixtures], scratchDir: join(scratch, check) }).find(
      (c) => c.check === check,
    );
    expect((await found?.run())?.length).toBeGreaterThan(0);
  });
});

describe('the discovery check', () => {
  it('catches a discovery that does not say which folders it listed (an index could not tell when files came)', async () => {
    const adapter: AgentAdapter = {
      ...base,
      discover: async (root, options) => ({ ...(await base.discover(root, options)), folders: [] }),
    };
    const check = 'discovers its fixtures, each file carrying its agent';
    const found = conformanceCases({ adapter, fixtures: [claudeFixtures], scratchDir: join(scratch, 'folders') }).find(
      (c) => c.check === check,
    );
    const failures = (await found?.run()) ?? [];
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.includes('not among the folders listed'))).toBe(true);
  });

  it.each([
    ['one that leaves out the folders above the files’ own', (path: string) => !path.endsWith('projects')],
    ['one that notes a folder with another mtime', () => true],
  ])('catches %s', async (label, keep) => {
    const adapter: AgentAdapter = {
      ...base,
      discover: async (root, options) => {
        const found = await base.discover(root, options);
        const folders = found.folders.filter(([path]) => keep(path));
        return {
          ...found,
          folders: label.includes('mtime') ? folders.map(([path, mtime]) => [path, mtime - 1] as const) : folders,
        };
      },
    };
    const check = 'discovers its fixtures, each file carrying its agent';
    const found = conformanceCases({
      adapter,
      fixtures: [claudeFixtures],
      scratchDir: join(scratch, 'ancestors'),
    }).find((c) => c.check === check);
    expect(((await found?.run()) ?? []).length).toBeGreaterThan(0);
  });
});
