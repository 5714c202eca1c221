import { describe, expect, it } from 'vitest';
import { fitText } from './waterfall-geometry';

/** 7 px per character, as a monospace font. */
const mono = (text: string) => text.length * 7;

describe('fitText (waterfall lane labels)', () => {
  it('keeps a label that fits whole', () => {
    expect(fitText('↳ general-purpose', 154, mono)).toBe('↳ general-purpose');
  });

  it('cuts a long label after its last whole word that fits, never inside a word', () => {
    const label = '↳ Investigate the failing integration tests in the payments service';
    const shown = fitText(label, 154, mono);
    expect(shown).toBe('↳ Investigate the…');
    expect(mono(shown)).toBeLessThanOrEqual(154);
  });

  it('drops punctuation before the ellipsis, and cuts a single overlong word by characters', () => {
    expect(fitText('↳ Review, then merge it', 70, mono)).toBe('↳ Review…');
    // a subagent lane's description · type, cut after the description
    expect(fitText('↳ Build TODO components · general-purpose', 190, mono)).toBe('↳ Build TODO components…');
    expect(fitText('Supercalifragilisticexpialidocious', 70, mono)).toBe('Supercali…');
  });
});
