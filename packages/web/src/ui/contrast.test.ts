import { describe, expect, it } from 'vitest';
import { contrastRatio, parseCssColor } from './contrast';
import { inTheme, stylesheetText, themeVariables } from './stylesheet-text';

const css = stylesheetText();

const PAIRS = [
  ['--text', '--bg'],
  ['--text', '--panel'],
  ['--text', '--panel-2'],
  ['--text-2', '--bg'],
  ['--text-2', '--panel'],
  ['--text-2', '--bg-2'],
  ['--muted', '--bg'],
  ['--muted', '--panel'],
  ['--muted', '--bg-2'],
  ['--accent', '--bg'],
  ['--accent', '--panel'],
  ['--err', '--panel'],
  ['--ok', '--panel'],
  ['--warn', '--panel'],
  ['--pending', '--panel'],
  ['--exp', '--panel'],
  ['--add-text', '--code-bg'],
  ['--del-text', '--code-bg'],
] as const;

describe('theme contrast (WCAG 2)', () => {
  it('computes known ratios', () => {
    const white = parseCssColor('#fff');
    const black = parseCssColor('rgb(0, 0, 0)');
    expect(white && black && contrastRatio(white, black)).toBeCloseTo(21, 5);
    expect(white && contrastRatio(white, white)).toBe(1);
    const grey = parseCssColor('#767676');
    expect(white && grey && contrastRatio(white, grey)).toBeCloseTo(4.54, 2);
    expect(parseCssColor('var(--x)')).toBeUndefined();
  });

  it('reads hsl() as the browser does (the waterfall colours tools it has no fixed colour for so)', () => {
    expect(parseCssColor('hsl(0, 100%, 50%)')).toEqual({ r: 255, g: 0, b: 0 });
    expect(parseCssColor('hsl(120deg 100% 25%)')).toEqual({ r: 0, g: 128, b: 0 });
    expect(parseCssColor('hsl(210, 55%, 65%)')).toEqual({ r: 117, g: 166, b: 215 });
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`keeps text readable in the ${theme} theme (≥ 4.5 : 1 on every main background)`, () => {
      const vars = themeVariables(theme, css);
      const low = PAIRS.map(([fg, bg]) => {
        const a = parseCssColor(vars[fg] ?? '');
        const b = parseCssColor(vars[bg] ?? '');
        return { pair: `${fg} on ${bg}`, ratio: a && b ? Math.round(contrastRatio(a, b) * 100) / 100 : 0 };
      }).filter((p) => p.ratio < 4.5);
      expect(low).toEqual([]);
    });
  }

  it('keeps the terminal’s status colours readable on its black in both themes (it is dark in both)', () => {
    const rule = css.slice(css.indexOf('\n.terminal {'), css.indexOf('}', css.indexOf('\n.terminal {')));
    expect(rule).toMatch(/color-scheme:\s*dark;/);
    const terminal = themeVariables('dark', css);
    const black = parseCssColor(/background:\s*(#[0-9a-f]+);/.exec(rule)?.[1] ?? '');
    const low = ['--ok', '--err', '--warn', '--pending', '--exp', '--accent', '--muted'].flatMap((name) => {
      const c = parseCssColor(terminal[name] ?? '');
      const ratio = c && black ? contrastRatio(c, black) : 0;
      return ratio >= 4.5 ? [] : [`${name} ${ratio.toFixed(2)}`];
    });
    expect(low).toEqual([]);
  });

  it('writes each theme colour once: no rule for a scheme or a toggle redefines one', () => {
    expect(css).not.toContain('prefers-color-scheme');
    const themed = [...css.matchAll(/:root\[data-theme="(\w+)"\] \{([^}]*)\}/g)].map((m) => [m[1], m[2]?.trim()]);
    expect(themed).toEqual([
      ['dark', 'color-scheme: dark;'],
      ['light', 'color-scheme: light;'],
    ]);
  });

  it('takes the branch of light-dark() for a theme, nested colours whole', () => {
    const value = 'linear-gradient(1deg, light-dark(rgba(1, 2, 3, 0.1), #fff), light-dark(#000, rgb(4, 5, 6)))';
    expect(inTheme(value, 'light')).toBe('linear-gradient(1deg, rgba(1, 2, 3, 0.1), #000)');
    expect(inTheme(value, 'dark')).toBe('linear-gradient(1deg, #fff, rgb(4, 5, 6))');
  });
});
