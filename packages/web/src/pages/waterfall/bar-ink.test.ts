import { describe, expect, it } from 'vitest';
import { contrastRatio, parseCssColor } from '../../ui/contrast';
import { themeVariables } from '../../ui/stylesheet-text';
import { paletteFor } from '../../ui/tool-palette';
import { barInk, labelGround } from './bar-ink';
import { WAIT_COLOUR } from './measured';

const THEMES = [
  ['dark', themeVariables('dark')],
  ['light', themeVariables('light')],
] as const;

/** A theme's custom property, resolved as the browser resolves it. */
function cssVariable(vars: Record<string, string>, name: string): string {
  const value = vars[name];
  expect(value, name).toBeDefined();
  return value ?? '';
}

function ratio(a: string, b: string): number {
  const x = parseCssColor(a);
  const y = parseCssColor(b);
  expect(x && y, `${a} on ${b}`).toBeTruthy();
  return x && y ? contrastRatio(x, y) : 0;
}

describe('barInk', () => {
  for (const [theme, vars] of THEMES) {
    const inks = [cssVariable(vars, '--bg'), cssVariable(vars, '--text')];
    const backdrop = cssVariable(vars, '--wf-bg');

    it(`writes every tool colour's label at 4.5:1 or more on its bar (${theme} theme)`, () => {
      for (const fill of paletteFor(backdrop)) {
        const tool = fill;
        const ink = barInk({ fill, alpha: 1, backdrop }, inks);
        expect(ratio(ink, fill), `${tool} (${fill}) in ${ink}`).toBeGreaterThanOrEqual(4.5);
      }
    });

    it(`picks the ink against the bar as drawn: a call with no result is faint (${theme} theme)`, () => {
      for (const fill of paletteFor(backdrop)) {
        const tool = fill;
        const ink = barInk({ fill, alpha: 0.45, backdrop }, inks);
        const other = inks.find((i) => i !== ink) ?? ink;
        const seen = (c: string) => {
          const f = parseCssColor(fill);
          const b = parseCssColor(backdrop);
          const i = parseCssColor(c);
          if (!f || !b || !i) return 0;
          const mix = (p: number, q: number) => p * 0.45 + q * 0.55;
          return contrastRatio(i, { r: mix(f.r, b.r), g: mix(f.g, b.g), b: mix(f.b, b.b) });
        };
        expect(seen(ink), `${tool} in ${ink}`).toBeGreaterThanOrEqual(seen(other));
      }
    });
  }

  it('inks a measured call that waited for permission against the wait band under its label, in both themes', () => {
    for (const [theme, vars] of THEMES) {
      const inks = [cssVariable(vars, '--bg'), cssVariable(vars, '--text')];
      const backdrop = cssVariable(vars, '--wf-bg');
      for (const tool of paletteFor(backdrop)) {
        const ground = labelGround(
          { fill: tool, open: false },
          { runStartsUnderLabel: false, waited: true },
          WAIT_COLOUR,
        );
        expect(ground.fill, tool).toBe(WAIT_COLOUR);
        const ink = barInk({ ...ground, backdrop }, inks);
        expect(ratio(ink, 'rgb(79, 193, 166)'), `${tool} on the wait, ${theme}`).toBeGreaterThanOrEqual(4.5);
      }
    }
    // its run under the label: the bar itself, solid; no wait: the faint inferred span
    expect(labelGround({ fill: '#123456', open: false }, { runStartsUnderLabel: true, waited: true }, 'x')).toEqual({
      fill: '#123456',
      alpha: 1,
    });
    expect(labelGround({ fill: '#123456', open: false }, { runStartsUnderLabel: false, waited: false }, 'x')).toEqual({
      fill: '#123456',
      alpha: 0.28,
    });
    expect(labelGround({ fill: '#123456', open: true }, undefined, 'x')).toEqual({ fill: '#123456', alpha: 0.45 });
  });

  it('falls back to the first ink on a colour it cannot read', () => {
    expect(barInk({ fill: 'var(--x)', alpha: 1, backdrop: '#fff' }, ['#111111', '#eeeeee'])).toBe('#111111');
    expect(barInk({ fill: '#ffffff', alpha: 1, backdrop: '#fff' }, ['nonsense', '#111111'])).toBe('#111111');
  });
});
