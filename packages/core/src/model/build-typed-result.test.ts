import { describe, expect, it } from 'vitest';
import { buildTypedResult, isStripped, stripUndefined } from './build-typed-result.js';
import { resultDataSchemas } from './typed-result.js';

describe('isStripped', () => {
  it('is true exactly where stripUndefined would copy the value as it is', () => {
    for (const value of [
      null,
      3,
      'a',
      undefined,
      [],
      [1, 'b', null],
      [undefined],
      {},
      { a: 1, b: [{ c: 'd' }], e: null },
    ]) {
      expect(isStripped(value), JSON.stringify(value)).toBe(true);
      expect(stripUndefined(value)).toStrictEqual(value);
    }
    for (const value of [
      { a: undefined },
      { a: { b: undefined } },
      [{ a: 1, b: undefined }],
      new Date(0),
      Object.create(null),
      Object.create({ inherited: 1 }),
    ]) {
      expect(isStripped(value)).toBe(false);
    }
  });
});

describe('buildTypedResult', () => {
  it('gives what stripping the schema output gives, undefined values left out', () => {
    const raw = {
      stdout: 'ok',
      stderr: '',
      exitCode: undefined,
      interrupted: false,
      backgroundTaskId: 'b1',
      unknownKey: 'dropped by the schema',
    };
    const typed = buildTypedResult('bash', 'Bash', () => raw);
    const parsed = resultDataSchemas.bash.parse(stripUndefined(raw));
    expect(typed).toStrictEqual(stripUndefined({ kind: 'bash', tool: 'Bash', data: parsed }));
    expect(typed).toStrictEqual({
      kind: 'bash',
      tool: 'Bash',
      data: { stdout: 'ok', stderr: '', interrupted: false, backgroundTaskId: 'b1' },
    });
    expect(buildTypedResult('bash', 'Bash', () => ({ stdout: 1 }))).toBeUndefined();
    expect(
      buildTypedResult('bash', 'Bash', () => {
        throw new Error('no');
      }),
    ).toBeUndefined();
  });
});
