import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepArray, deepObject, WORST_DEPTH, worstLines } from '../../../test/hostile.js';
import { decodeLine, decodeRecord } from '../src/adapters/claude-code/decode-record.js';
import { readRecords, streamRecords } from '../src/adapters/claude-code/read-records.js';
import { typeResult } from '../src/adapters/claude-code/results/type-result.js';
import { capDepth, clippedJsonText, jsonDepth, MAX_JSON_DEPTH } from '../src/internal/json-depth.js';
import { discoverFiles, groupSessions } from '../src/io/discover.js';
import { readLines } from '../src/io/read-lines.js';
import { createRecordUuid, createToolUseId } from '../src/model/ids.js';
import type { ParseIssue } from '../src/model/issue.js';
import { loadSession } from '../src/session/load-session.js';

let dir: string;
let file: string;
const lines = worstLines();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdash-hostile-'));
  await writeFile(join(dir, 'hostile-session.jsonl'), `${lines.join('\n')}\n`);
  file = join(dir, 'hostile-session.jsonl');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('json depth caps', () => {
  it('measures and caps depth without recursion, keeping the deep part as clipped JSON text', () => {
    expect(jsonDepth(JSON.parse(deepArray(WORST_DEPTH * 10)))).toBe(WORST_DEPTH * 10);
    expect(capDepth(JSON.parse('[[[1]],{"a":[2]}]'), 2)).toEqual({ value: [['[1]'], { a: '[2]' }], replaced: 2 });
    const shallow = { a: [1, { b: 'c' }] };
    expect(capDepth(shallow)).toEqual({ value: shallow, replaced: 0 });
    const capped = capDepth(JSON.parse(deepObject(WORST_DEPTH * 10)));
    expect(capped.replaced).toBe(1);
    expect(jsonDepth(capped.value)).toBe(MAX_JSON_DEPTH);
  });

  it('caps a deep value under a "__proto__" key too', () => {
    const capped = capDepth(JSON.parse(`{"__proto__":${deepArray(WORST_DEPTH)}}`));
    expect(capped.replaced).toBe(1);
    expect(jsonDepth(capped.value)).toBe(MAX_JSON_DEPTH);
    const decoded = decodeLine(
      `{"type":"user","uuid":"u","message":{"content":"x"},"__proto__":${deepObject(WORST_DEPTH)}}`,
      {
        file: 'p.jsonl',
        line: 1,
        offset: 0,
      },
    );
    expect(decoded.issues?.map((i) => i.code)).toEqual(['too_deep']);
  });

  it('writes JSON text like JSON.stringify, clipped with an ellipsis', () => {
    const value = { a: [1, 'x', null, true, { b: undefined, c: 2 }], 'd"': [undefined] };
    expect(clippedJsonText(value, 1000)).toBe(JSON.stringify(value));
    expect(clippedJsonText(value, 5)).toBe('{"a":…');
    expect(clippedJsonText(new Array(1_000_000).fill(7), 6)).toBe('[7,7,7…');
  });
});

describe(`the worst line (${WORST_DEPTH} levels in every field, huge arrays, NUL)`, () => {
  it('decodeLine never throws: every deep line is a record or an issue, deep parts reported as too_deep', () => {
    const outcomes = lines.map((text, i) => {
      const decoded = decodeLine(text, { file: 'w.jsonl', line: i + 1, offset: 0 });
      return decoded.ok ? `${decoded.value.kind}${decoded.issues ? ' too_deep' : ''}` : decoded.issue.code;
    });
    expect(outcomes.slice(0, 12)).toEqual([
      'assistant too_deep',
      'user too_deep',
      'user too_deep',
      'system too_deep',
      'attachment too_deep',
      'progress too_deep',
      'queue-operation too_deep',
      'meta too_deep',
      'unknown too_deep',
      'file-history-snapshot',
      'summary too_deep',
      'not_an_object',
    ]);
    expect(outcomes.slice(-3)).toEqual(['assistant', 'user', 'user']);
    // decodeRecord over the parsed values gives the same outcomes.
    const direct = lines.map((text, i) => {
      const decoded = decodeRecord(JSON.parse(text), { file: 'w.jsonl', line: i + 1, offset: 0 });
      return decoded.ok ? `${decoded.value.kind}${decoded.issues ? ' too_deep' : ''}` : decoded.issue.code;
    });
    expect(direct).toEqual(outcomes);
  });

  it('readLines and streamRecords never throw and keep every line at its line number', async () => {
    const seen: number[] = [];
    await readLines(file, (e) => {
      if (e.kind === 'line') seen.push(e.line);
    });
    expect(seen).toEqual(lines.map((_, i) => i + 1));
    const issues: ParseIssue[] = [];
    let records = 0;
    await streamRecords(file, (e) => {
      if (e.kind === 'issue') issues.push(e.issue);
      else records += 1;
    });
    // Two bare arrays are not objects; the bare deep object is an unknown record.
    expect(records).toBe(lines.length - 2);
    expect(issues.filter((i) => i.code === 'not_an_object').map((i) => i.line)).toEqual([12, 36]);
    // Every line of the three deep groups but the snapshots without a deep value and the bare arrays.
    const deepLines = lines.flatMap((_, i) => (i < 36 && ![9, 11, 33, 35].includes(i) ? [i + 1] : []));
    expect(issues.filter((i) => i.code === 'too_deep').map((i) => i.line)).toEqual(deepLines);
  });

  it('loadSession never throws and types every deep tool result', async () => {
    const { files } = await discoverFiles([file]);
    const [group] = groupSessions(files);
    if (group === undefined) throw new Error('no session discovered');
    const session = await loadSession(group);
    expect(session.calls.map((c) => [c.id, c.result?.isError])).toEqual([
      ['toolu_hostile_0', false],
      ['toolu_hostile_1', true],
      ['toolu_hostile_2', false],
    ]);
    expect(session.issues.filter((i) => i.code === 'too_deep')).toHaveLength(32);
    expect(JSON.stringify(session).length).toBeGreaterThan(100_000);
  });

  it('typeResult never throws on a result whose text is deeply nested JSON', async () => {
    const { records } = await readRecords(file);
    expect(records.length).toBe(lines.length - 2);
    const typed = typeResult(
      {
        id: createToolUseId('t'),
        name: 'mcp__x__y',
        input: {},
        timestamp: undefined,
        messageId: undefined,
        loc: { file, line: 1, offset: 0 },
      },
      {
        toolUseId: createToolUseId('t'),
        uuid: createRecordUuid('u'),
        timestamp: undefined,
        loc: { file, line: 2, offset: 0 },
        isError: false,
        content: [{ kind: 'text', text: deepObject(WORST_DEPTH) }],
        toolUseResult: undefined,
      },
    );
    expect(typed.isError).toBe(false);
  });
});

describe('hostile files beside a transcript', () => {
  it('a subagent .meta.json linked to /dev/zero is reported, not read', async () => {
    const project = join(dir, 'meta-project');
    const sid = '12345678-1234-4234-8234-123456789abc';
    const agentDir = join(project, sid, 'subagents');
    await mkdir(agentDir, { recursive: true });
    await writeFile(join(project, `${sid}.jsonl`), `${lines[0]}\n`);
    await writeFile(join(agentDir, 'agent-a1.jsonl'), `${lines[1]}\n`);
    await symlink('/dev/zero', join(agentDir, 'agent-a1.meta.json'));
    const { files } = await discoverFiles([project]);
    const [group] = groupSessions(files);
    if (group === undefined) throw new Error('no session discovered');
    const session = await loadSession(group);
    expect(session.issues.filter((i) => i.code === 'invalid_json').map((i) => i.message)).toEqual([
      'unreadable subagent meta: not a regular file',
    ]);
  });
});
