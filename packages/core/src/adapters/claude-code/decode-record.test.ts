import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesHome } from '../../../test/helpers.js';
import { decodeLine } from './decode-record.js';

const loc = { file: 'x.jsonl', line: 7, offset: 0 };

function sampleLines(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl'))
        out.push(
          ...readFileSync(path, 'utf8')
            .split('\n')
            .filter((l) => l.trim() !== ''),
        );
    }
  };
  walk(samplesHome);
  return out;
}

describe('decodeLine', () => {
  it('maps every record type in the bundled real transcripts to a typed kind, none unknown', () => {
    const kinds = new Map<string, Set<string>>();
    for (const line of sampleLines()) {
      const raw = JSON.parse(line) as { type: string; subtype?: string };
      const decoded = decodeLine(line, loc);
      if (!decoded.ok) throw new Error(decoded.issue.message);
      const set = kinds.get(raw.type) ?? new Set<string>();
      set.add(decoded.value.kind);
      kinds.set(raw.type, set);
    }
    expect(Object.fromEntries([...kinds].map(([type, set]) => [type, [...set]]).sort())).toEqual({
      'api-request': ['api-request'],
      'api-request-blob': ['api-request'],
      'api-request-shape': ['api-request'],
      assistant: ['assistant'],
      'atis-latch': ['meta'],
      attachment: ['attachment'],
      'cost-state': ['cost-state'],
      'last-prompt': ['last-prompt'],
      'queue-operation': ['queue-operation'],
      relocated: ['meta'],
      summary: ['summary'],
      system: ['system'],
      'tools-used': ['meta'],
      user: ['user'],
      'worktree-state': ['meta'],
    });
  });

  it('keeps an unknown record type raw instead of dropping it', () => {
    const decoded = decodeLine('{"type":"hologram","sessionId":"s1","beam":[1,2]}', loc);
    expect(decoded).toEqual({
      ok: true,
      value: {
        kind: 'unknown',
        type: 'hologram',
        sessionId: 's1',
        timestamp: undefined,
        loc,
        raw: { type: 'hologram', sessionId: 's1', beam: [1, 2] },
      },
    });
  });

  it('reports bad JSON and non-objects as issues with file and line', () => {
    const bad = decodeLine('{"type":"user",', loc);
    expect(bad.ok ? undefined : [bad.issue.code, bad.issue.file, bad.issue.line]).toEqual([
      'invalid_json',
      'x.jsonl',
      7,
    ]);
    const array = decodeLine('[1,2]', loc);
    expect(array.ok ? undefined : array.issue.code).toBe('not_an_object');
  });

  it('keeps a chain record without uuid (placed by file order) and gives a tool_use without id a stable id', () => {
    const stub = decodeLine(
      '{"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"hi"},{"type":"tool_use","name":"bash","input":{}},{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}],"usage":{"input_tokens":3,"output_tokens":4}}}',
      loc,
    );
    const record = stub.ok && stub.value.kind === 'assistant' ? stub.value : undefined;
    expect(record?.uuid).toBe('~7@x.jsonl');
    expect(record?.usage?.outputTokens).toBe(4);
    expect(record?.content.map((b) => (b.kind === 'tool-use' ? b.id : b.kind))).toEqual([
      'text',
      '~7@x.jsonl#1',
      'toolu_1',
    ]);
    // With a uuid, the id is `<uuid>#<block index>`: the same in every copy of the record (resume, fork).
    const copied = decodeLine(
      '{"type":"assistant","uuid":"a9","message":{"content":[{"type":"tool_use","name":"bash","input":{}}]}}',
      { ...loc, file: 'other.jsonl', line: 99 },
    );
    expect(copied.ok && copied.value.kind === 'assistant' ? copied.value.content[0] : undefined).toMatchObject({
      id: 'a9#0',
    });
  });

  it('decodes titles, last-prompt leaf pointers and synthetic API-error messages', () => {
    const title = decodeLine('{"type":"custom-title","customTitle":"Fix the build","sessionId":"s"}', loc);
    expect(title.ok && title.value.kind === 'title' ? [title.value.source, title.value.title] : []).toEqual([
      'custom-title',
      'Fix the build',
    ]);
    const ai = decodeLine('{"type":"ai-title","aiTitle":"Refactor parser","sessionId":"s"}', loc);
    expect(ai.ok && ai.value.kind === 'title' ? ai.value.source : '').toBe('ai-title');
    const last = decodeLine('{"type":"last-prompt","leafUuid":"u9","sessionId":"s"}', loc);
    expect(last.ok && last.value.kind === 'last-prompt' ? [last.value.leafUuid, last.value.lastPrompt] : []).toEqual([
      'u9',
      undefined,
    ]);
    const synthetic = decodeLine(
      '{"type":"assistant","uuid":"a1","parentUuid":null,"isApiErrorMessage":true,"message":{"id":"x","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 500"}],"usage":{"input_tokens":0,"output_tokens":0}}}',
      loc,
    );
    expect(
      synthetic.ok && synthetic.value.kind === 'assistant'
        ? [synthetic.value.isSynthetic, synthetic.value.isApiErrorMessage]
        : [],
    ).toEqual([true, true]);
  });
});

describe('a user record without a message to read (the wild set has hand-made ones)', () => {
  const line = (message: unknown) =>
    JSON.stringify({ type: 'user', uuid: 'u9', sessionId: 's', timestamp: '2025-06-14T11:03:30Z', message });

  it('is kept whole as a record of its own, which is reported, not an empty prompt', () => {
    for (const message of ['error', { role: 'user', contenst: [{ type: 'tool_result', tool_use_id: 't' }] }]) {
      const decoded = decodeLine(line(message), loc);
      expect(decoded.value).toMatchObject({ kind: 'unknown', type: 'user without message content' });
      expect(decoded.value?.kind === 'unknown' && decoded.value.raw).toMatchObject({ message });
    }
  });

  it('reads a bare string among its blocks as text', () => {
    const decoded = decodeLine(line({ role: 'user', content: ['wow error'] }), loc);
    expect(decoded.value?.kind === 'user' && decoded.value.content).toEqual([{ kind: 'text', text: 'wow error' }]);
  });
});

describe('an assistant record without a message to read', () => {
  const line = (message: unknown) =>
    JSON.stringify({ type: 'assistant', uuid: 'a9', sessionId: 's', timestamp: '2025-06-14T11:03:31Z', message });

  it('is kept whole as a record of its own, which is reported, not an empty response', () => {
    // a string message, a content of null, a number or an object (a review: each became a response of no items)
    for (const message of [
      'hello',
      { id: 'm', content: null },
      { id: 'm', content: 5 },
      { id: 'm', content: { a: 1 } },
    ]) {
      const decoded = decodeLine(line(message), loc);
      expect(decoded.value).toMatchObject({ kind: 'unknown', type: 'assistant without message content' });
      expect(decoded.value?.kind === 'unknown' && decoded.value.raw).toMatchObject({ message });
    }
    // a string content is one text block, as before
    const text = decodeLine(line({ id: 'm', model: 'x', content: 'hi' }), loc);
    expect(text.value?.kind === 'assistant' && text.value.content).toEqual([{ kind: 'text', text: 'hi' }]);
  });
});
