import { expect, it } from 'vitest';
import { CopyFilter } from './copies.js';

it('drops a uuid an earlier file holds, and within a file only a repeat with the same signature', () => {
  const copies = new CopyFilter();
  const first = [
    ['u1', 'a'],
    ['u2', 'a'],
    ['u2', 'b'],
    ['u2', 'a'],
  ].map(([uuid, signature]) => copies.isCopy(uuid as string, signature as string));
  expect(first).toEqual([false, false, false, true]);
  expect(copies.holds('u1')).toBe(false);
  copies.endFile();
  expect(copies.holds('u1')).toBe(true);
  const second = [
    ['u1', 'z'],
    ['u3', 'a'],
    ['u3', 'a'],
  ].map(([uuid, signature]) => copies.isCopy(uuid as string, signature as string));
  expect(second).toEqual([true, false, true]);
});
