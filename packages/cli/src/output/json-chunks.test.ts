import { describe, expect, it } from 'vitest';
import { jsonChunks } from './json-chunks.js';
import { writeChunks } from './write-chunks.js';

const streamed = (value: unknown) => [...jsonChunks(value)].join('');

describe('jsonChunks', () => {
  it('writes exactly what JSON.stringify(value, null, 2) writes', () => {
    const values: unknown[] = [
      null,
      0,
      -1.5e-7,
      'text with "quotes", \\ backslashes, \n newlines, \u0000 NUL, \u2028 and 😀',
      true,
      [],
      {},
      [[], {}, [[]], { a: {} }],
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      { onlyUndefined: undefined },
      [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, -0],
      { date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), nested: { toJSON: (key: string) => `key:${key}` } },
      { 'key with "quote"': [1, { x: [null, 'y'] }], '': 'empty key', 10: 'numeric key', 2: 'ordered' },
    ];
    for (const value of values) expect(streamed(value)).toBe(JSON.stringify(value, null, 2));
    expect(streamed(undefined)).toBe('');
  });

  it('writes deeply nested values without recursion', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 3000; i++) deep = i % 2 === 0 ? [deep] : { d: deep };
    const text = streamed(deep);
    expect(text.split('\n').length).toBe(2 * 3000 + 1);
    // parses back to the same chain of 3,000 containers around the same leaf
    let back: unknown = JSON.parse(text);
    let depth = 0;
    while (typeof back === 'object' && back !== null) {
      back = Array.isArray(back) ? back[0] : (back as { d: unknown }).d;
      depth++;
    }
    expect([depth, back]).toEqual([3000, 'bottom']);
  });

  it('refuses a circular value, as JSON.stringify does', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = { back: loop };
    expect(() => streamed(loop)).toThrow(TypeError);
    // the same object twice, side by side, is not a cycle
    const shared = { s: 1 };
    expect(streamed([shared, shared])).toBe(JSON.stringify([shared, shared], null, 2));
  });
});

describe('writeChunks', () => {
  it('batches pieces into writes of about 64 KiB, in order', async () => {
    const writes: string[] = [];
    const pieces = Array.from({ length: 10_000 }, (_, i) => `${String(i).padStart(20, '.')}\n`);
    await writeChunks({ write: (s: string) => writes.push(s) }, pieces);
    expect(writes.join('')).toBe(pieces.join(''));
    expect(writes.length).toBe(Math.ceil((10_000 * 21) / (64 * 1024 + 21 - ((64 * 1024) % 21))));
    expect(Math.max(...writes.map((w) => w.length))).toBeLessThan(64 * 1024 + 21);
  });
});

describe('jsonChunks over values it writes through JSON.stringify in one piece', () => {
  it('writes exactly what JSON.stringify writes for small values inside large ones', () => {
    const shared = { s: [1, 2, { t: 'x' }] };
    const event = (i: number) => ({
      kind: 'assistant',
      index: i,
      items: [
        { kind: 'text', text: `line\nnext ${i}\u2028` },
        { kind: 'tool-call', input: { a: [i, null, {}] } },
      ],
      when: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      skipped: undefined,
      fn: () => i,
      shared,
      again: shared,
      nested: { toJSON: (key: string) => ({ key, i }) },
      empty: [[], {}],
    });
    const value = {
      events: Array.from({ length: 30 }, (_, i) => event(i)),
      // more values than one piece takes: written piece by piece, its items in one piece each
      many: Array.from({ length: 12_000 }, (_, i) => ({ i, tags: ['a', 'b'] })),
      deep: (() => {
        let d: unknown = { leaf: true };
        for (let i = 0; i < 80; i++) d = { d: [d] };
        return d;
      })(),
    };
    const pieces = [...jsonChunks(value)];
    expect(pieces.join('')).toBe(JSON.stringify(value, null, 2));
    // a plain item is one piece (after the one that separates it from the one before), not one per value
    const plain = { many: value.many };
    expect([...jsonChunks(plain)].length).toBe(2 * 12_000 + 5);
  });

  it('refuses a cycle through a value above the one written in one piece', () => {
    const session: Record<string, unknown> = { id: 's' };
    session.events = [{ kind: 'prompt', session }];
    expect(() => [...jsonChunks(session)]).toThrow(TypeError);
  });

  it('indents every line after the first by the indent it is given, at any depth', () => {
    const value = {
      text: 'a\nb "quoted" \u2028',
      list: [1, [], {}, [{ x: null, y: [true, 'z'] }]],
      many: Array.from({ length: 12_000 }, (_, i) => ({ i })),
    };
    for (const depth of [0, 1, 3, 16, 17, 40]) {
      const indent = '  '.repeat(depth);
      const expected = JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
      expect([...jsonChunks(value, indent)].join('')).toBe(expected);
      expect([...jsonChunks(value.list, indent)].join('')).toBe(
        JSON.stringify(value.list, null, 2).replaceAll('\n', `\n${indent}`),
      );
    }
  });
});
