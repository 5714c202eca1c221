import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecords } from './read-records.js';
import { splitCutRecord } from './split-glued.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-cut-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (uuid: string, text: string) =>
  JSON.stringify({
    type: 'user',
    uuid,
    parentUuid: null,
    sessionId: '11111111-2222-4333-8444-555555555555',
    timestamp: '2026-01-02T10:00:00.000Z',
    message: { role: 'user', content: text },
  });

describe('splitCutRecord', () => {
  it('finds the whole record after a cut-off one, even when the cut falls inside a string or holds braces', () => {
    const whole = record('u2', 'after the crash {"not":"a start"}');
    for (const cut of [
      record('u1', 'interrupted').slice(0, 40),
      '{"type":"user","message":{"content":"hel',
      '{"a":{"b":',
    ]) {
      expect(splitCutRecord(cut + whole)).toEqual({ cut, record: whole });
    }
  });

  it('takes no message nested in a cut record for a record (an agent_progress cut after its message)', () => {
    const progress = JSON.stringify({
      type: 'progress',
      uuid: 'p1',
      parentUuid: 'u1',
      sessionId: '11111111-2222-4333-8444-555555555555',
      data: {
        type: 'agent_progress',
        message: { type: 'assistant', uuid: 'sub-a1', message: { role: 'assistant', content: [] } },
        normalizedMessages: [],
      },
    });
    const cut = progress.slice(0, progress.indexOf(',"normalizedMessages"'));
    expect(splitCutRecord(cut)).toBeUndefined();
  });

  it('finds none where no tail is one object', () => {
    expect(splitCutRecord('{"type":"user","mess')).toBeUndefined();
    expect(splitCutRecord('{"a":1} trailing')).toBeUndefined();
    expect(splitCutRecord('{"a":[1,2]')).toBeUndefined();
  });
});

describe('a transcript whose write was interrupted, then went on', () => {
  it('keeps the whole record written after the cut-off one on its line, and says what was cut where', async () => {
    const file = join(dir, 'cut.jsonl');
    const lines = [
      record('u1', 'before'),
      record('u2', 'interrupted mid-write').slice(0, 150) + record('u3', 'AFTERCRASH'),
      record('u4', 'later'),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readRecords(file);
    expect(read.records.map((r) => [(r as { uuid?: string }).uuid, r.loc.line])).toEqual([
      ['u1', 1],
      ['u3', 2],
      ['u4', 3],
    ]);
    expect(read.issues.map((i) => [i.code, i.line])).toEqual([['invalid_json', 2]]);
    expect(read.issues[0]?.message).toMatch(/^a record cut off after 150 characters .* the whole one kept$/);
  });

  it('still reports a line that is only a cut-off record as invalid, and keeps nothing of it', async () => {
    const file = join(dir, 'cut-only.jsonl');
    // the second cut just after an object nested in it: that object is no record
    const nested = record('u3', 'y');
    const afterNested = nested.slice(0, nested.indexOf('"content":"y"}') + '"content":"y"}'.length);
    writeFileSync(
      file,
      `${record('u1', 'before')}\n${record('u2', 'x').slice(0, 60)}\n${afterNested}\n${record('u4', 'later')}\n`,
    );
    const read = await readRecords(file);
    expect(read.records.map((r) => (r as { uuid?: string }).uuid)).toEqual(['u1', 'u4']);
    expect(read.issues.map((i) => [i.code, i.line, i.message.startsWith('invalid JSON')])).toEqual([
      ['invalid_json', 2, true],
      ['invalid_json', 3, true],
    ]);
  });
});
