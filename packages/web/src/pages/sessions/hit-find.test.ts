import { describe, expect, it } from 'vitest';
import { hitFindText } from './hit-find';

const mark = (text: string) => `\u0001${text}\u0002`;

describe('what a search hit opens its session to find', () => {
  it("is the query's words without the search syntax, where the hit holds them so", () => {
    // "Resume cancelled" (a phrase) opened the session finding `"Resume cancelled"`, quotes and all: no match
    expect(hitFindText('"Resume cancelled"', mark('Resume cancelled'))).toBe('Resume cancelled');
    expect(hitFindText('npm test', `…ran ${mark('npm')} ${mark('test')} and…`)).toBe('npm test');
    expect(hitFindText('quor*', `the ${mark('quorum')} module`)).toBe('quor');
    expect(hitFindText('background', `a ${mark('Background')} job`)).toBe('background');
  });

  it("is the longest run of marked words where the hit's words are apart, else the query's words", () => {
    expect(hitFindText('walrus ranking', `the ${mark('ranking')} of the ${mark('walrus')}`)).toBe('ranking');
    expect(hitFindText('ox walrus', `an ${mark('ox')} and a ${mark('walrus')}`)).toBe('walrus');
    // a snippet cut inside the phrase: the run it holds, not its one word left apart (was "output")
    const cut = `${mark('output')} of a test: ${['padding', 'text', 'for', 'a', 'large'].map(mark).join(' ')}…`;
    expect(hitFindText('padding text for a large output', cut)).toBe('padding text for a large');
    expect(hitFindText('"a b"', undefined)).toBe('a b');
    expect(hitFindText('plain', 'no marks here')).toBe('plain');
  });
});
