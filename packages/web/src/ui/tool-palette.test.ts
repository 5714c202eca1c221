import { describe, expect, it } from 'vitest';
import { contrastRatio, deltaE, over, parseCssColor, type Rgb } from './contrast';
import { BAND_RGB, markBackground, paletteFor, TOOL_PALETTE, toolColours, toolStyles } from './tool-palette';

const rgb = (css: string): Rgb => parseCssColor(css) ?? { r: 0, g: 0, b: 0 };
/** Each theme's waterfall background and its outlines of an expected error and an error (styles.css). */
const themes = [
  { name: 'dark', backdrop: '#141821', expected: '#8e97aa', error: '#ff6b7a' },
  { name: 'light', backdrop: '#ffffff', expected: '#5a6375', error: '#c02336' },
] as const;
/** Least ΔE between two tools of one chart, and between a tool and a band as drawn. */
const MIN_TOOLS = 25;
const MIN_BANDS = 20;
const gemini = ['glob', 'grep_search', 'list_directory', 'read_file', 'replace', 'run_shell_command', 'write_file'];

describe.each(themes)('the waterfall tool colours on the $name theme', ({ backdrop, expected, error }) => {
  const palette = paletteFor(backdrop);
  const bg = rgb(backdrop);

  it('differ by ΔE 25 or more between any two tools of a chart, for 2 to 16 tools', () => {
    for (let n = 2; n <= palette.length; n++) {
      const colours = [
        ...toolColours(
          Array.from({ length: n }, (_, i) => `tool_${i}`),
          palette,
        ).values(),
      ].map(rgb);
      const least = Math.min(...colours.flatMap((a, i) => colours.slice(0, i).map((b) => deltaE(a, b))));
      expect(least, `${n} tools`).toBeGreaterThanOrEqual(MIN_TOOLS);
    }
  });

  it("keep ΔE 20 from the bands' colours (model, waiting for you, error, expected error) and 3:1 on the background", () => {
    const bands = [
      ...Object.values(BAND_RGB).flatMap((c) => [0.35, 0.55, 0.8, 1].map((a) => over(rgb(`rgb(${c})`), a, bg))),
      rgb(expected),
      rgb(error),
    ];
    for (const colour of palette.map(rgb)) {
      expect(Math.min(...bands.map((b) => deltaE(colour, b)))).toBeGreaterThanOrEqual(MIN_BANDS);
      expect(contrastRatio(colour, bg)).toBeGreaterThanOrEqual(3);
    }
  });

  it("tell Gemini 0.61's tools apart (before: grep_search and replace ΔE 2.1, run_shell_command and write_file 6.8, hashed by name)", () => {
    const colours = [...toolColours(gemini, palette).values()].map(rgb);
    const least = Math.min(...colours.flatMap((a, i) => colours.slice(0, i).map((b) => deltaE(a, b))));
    expect(least).toBeGreaterThanOrEqual(MIN_TOOLS);
  });
});

describe('the tool colours of a chart', () => {
  it('are the same for one set of tools, whatever order they come in', () => {
    const a = toolColours(['Read', 'Bash', 'Grep'], TOOL_PALETTE.dark);
    const b = toolColours(['Grep', 'Read', 'Bash', 'Read'], TOOL_PALETTE.dark);
    expect([...a]).toEqual([...b]);
    expect([...a.keys()]).toEqual(['Bash', 'Grep', 'Read']);
  });

  it("follow the background's lightness", () => {
    expect(paletteFor('#ffffff')).toBe(TOOL_PALETTE.light);
    expect(paletteFor('#141821')).toBe(TOOL_PALETTE.dark);
    expect(paletteFor('not a colour')).toBe(TOOL_PALETTE.dark);
  });
});

describe('the tool styles of a chart past the palette', () => {
  const tools = (n: number) => Array.from({ length: n }, (_, i) => `tool_${String(i).padStart(2, '0')}`);

  it('tell any two of up to 64 tools apart, by colour or by stripes; the first 16 plain', () => {
    const styles = [...toolStyles(tools(64), TOOL_PALETTE.dark).values()];
    expect(new Set(styles.map((s) => `${s.colour} ${s.mark}`)).size).toBe(64);
    expect(styles.slice(0, 16).every((s) => s.mark === 'solid')).toBe(true);
    expect(styles.map((s) => s.mark).filter((m, i, all) => all.indexOf(m) === i)).toEqual([
      'solid',
      'stripes',
      'back-stripes',
      'cross',
    ]);
    // the colours themselves as toolColours gives them
    expect([...toolColours(tools(64), TOOL_PALETTE.dark).values()]).toEqual(styles.map((s) => s.colour));
  });

  it("draw a legend swatch's stripes in the ink, over the tool's colour", () => {
    expect(markBackground({ colour: '#dada2b', mark: 'solid' }, '#0d0f14')).toBe('#dada2b');
    expect(markBackground({ colour: '#dada2b', mark: 'cross' }, '#0d0f14')).toMatchInlineSnapshot(
      `"repeating-linear-gradient(-45deg, rgba(13, 15, 20, 0.6) 0 1.5px, transparent 1.5px 5px), repeating-linear-gradient(45deg, rgba(13, 15, 20, 0.6) 0 1.5px, transparent 1.5px 5px), #dada2b"`,
    );
  });
});
