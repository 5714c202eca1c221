import { describe, expect, it } from 'vitest';
import { contrastRatio, parseCssColor } from './contrast';
import { stylesheetText } from './stylesheet-text';

const css = stylesheetText();

/** The custom properties of the first rule whose selector is exactly `selector`. */
function variables(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const body = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]?.trim()]));
}

/** The properties with each `var(--name)` replaced by that property's value (as the browser resolves them). */
function resolved(vars: Record<string, string>): Record<string, string> {
  const expand = (value: string, depth = 0): string =>
    depth > 8 ? value : value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => expand(vars[name] ?? '', depth + 1));
  return Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, expand(value)]));
}

/** The dark theme's properties: `:root`'s, with the status colours it shares with the terminal. */
const dark = () => ({ ...variables(':root'), ...variables(':root,\n.terminal') });

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

  for (const [theme, selector] of [
    ['dark', ':root'],
    ['light', ':root[data-theme="light"]'],
  ] as const) {
    it(`keeps text readable in the ${theme} theme (≥ 4.5 : 1 on every main background)`, () => {
      const vars = resolved({ ...dark(), ...(selector === ':root' ? {} : variables(selector)) });
      const low = PAIRS.map(([fg, bg]) => {
        const a = parseCssColor(vars[fg] ?? '');
        const b = parseCssColor(vars[bg] ?? '');
        return { pair: `${fg} on ${bg}`, ratio: a && b ? Math.round(contrastRatio(a, b) * 100) / 100 : 0 };
      }).filter((p) => p.ratio < 4.5);
      expect(low).toEqual([]);
    });
  }

  it('keeps the terminal’s status colours readable on its black in both themes (it is dark in both)', () => {
    // The terminal's own rule (the one after a blank line; `:root,\n.terminal` is the shared one).
    const terminal = resolved({ ...dark(), ...variables('\n\n.terminal') });
    const black = parseCssColor('#07080b');
    const low = ['--ok', '--err', '--warn', '--pending', '--exp', '--accent', '--muted'].flatMap((name) => {
      const c = parseCssColor(terminal[name] ?? '');
      const ratio = c && black ? contrastRatio(c, black) : 0;
      return ratio >= 4.5 ? [] : [`${name} ${ratio.toFixed(2)}`];
    });
    expect(low).toEqual([]);
  });

  it('has the same light palette for the media query and the toggle', () => {
    const media = css.slice(css.indexOf('@media (prefers-color-scheme: light)'));
    const inMedia = variables.call(null, ':root[data-theme="light"]');
    const block = media.slice(media.indexOf('{', media.indexOf(':root:not')) + 1, media.indexOf('}'));
    const mediaVars = Object.fromEntries(
      [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]?.trim()]),
    );
    expect(mediaVars).toEqual(inMedia);
  });
});
