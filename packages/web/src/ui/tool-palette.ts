import { contrastRatio, parseCssColor } from './contrast';

/**
 * The waterfall's bands and outlines, which tool colours keep away from: model turns, the waits for the person, a
 * failed call's outline (a measured permission wait is `waitingForYou` too).
 */
export const BAND_RGB = {
  model: '139, 155, 255',
  waitingForYou: '79, 193, 166',
  error: '255, 107, 122',
} as const satisfies Record<string, string>;

/**
 * Tool colours for each theme, in the order they are handed out. Each list was picked greedily from sRGB colours of
 * 3:1 contrast or more on the theme's waterfall background that one of the theme's inks writes on at 4.5:1, no red (red outlines a failed call) and away from the bands:
 * each next colour the farthest (CIE76 ΔE) from those before it, so that the first k of them are spread for every k
 * (`tool-palette.test.ts` holds the distances).
 */
export const TOOL_PALETTE = {
  dark: [
    '#dada2b',
    '#942bda',
    '#2bb7da',
    '#9c4f1c',
    '#ec93cd',
    '#26732e',
    '#f3e2ba',
    '#2bda3c',
    '#2561d0',
    '#93ec9c',
    '#b62098',
    '#938825',
    '#babff3',
    '#6aa91e',
    '#a0eee2',
    '#bb79e7',
  ],
  light: [
    '#a98d1e',
    '#2b2bda',
    '#259dd0',
    '#9c1c62',
    '#1ea96a',
    '#173282',
    '#de45de',
    '#734526',
    '#b17dd4',
    '#26736b',
    '#d06925',
    '#699c1c',
    '#77198f',
    '#5260e0',
    '#175282',
    '#e35fbb',
  ],
} as const satisfies Record<'dark' | 'light', readonly string[]>;

/** The palette for a waterfall drawn on `backdrop`: the light theme's on a light background, else the dark one's. */
export function paletteFor(backdrop: string): readonly string[] {
  const bg = parseCssColor(backdrop);
  const light =
    bg !== undefined && contrastRatio(bg, { r: 0, g: 0, b: 0 }) > contrastRatio(bg, { r: 255, g: 255, b: 255 });
  return light ? TOOL_PALETTE.light : TOOL_PALETTE.dark;
}

/**
 * What a tool's bars carry over their colour. No more colours keep ΔE 25 from each other, 20 from the bands and
 * 3:1 on the background than the palette holds, so past it the colours come round again with stripes (one way,
 * then the other, then crossed): a chart tells 4 × 16 tools apart, and only past that do two tools look alike.
 */
export const TOOL_MARKS = ['solid', 'stripes', 'back-stripes', 'cross'] as const;
export type ToolMark = (typeof TOOL_MARKS)[number];

export interface ToolStyle {
  readonly colour: string;
  readonly mark: ToolMark;
}

/**
 * The colour and mark of each tool of one chart: the tools in name order take the palette's colours in turn, plain
 * the first round, then marked; so one set of tools is always drawn alike and any two of them (up to 4 rounds of
 * the palette) differ.
 */
export function toolStyles(tools: Iterable<string>, palette: readonly string[]): ReadonlyMap<string, ToolStyle> {
  const names = [...new Set(tools)].sort();
  const size = Math.max(1, palette.length);
  return new Map(
    names.map((name, i) => [
      name,
      { colour: palette[i % size] ?? '#888888', mark: TOOL_MARKS[Math.floor(i / size) % TOOL_MARKS.length] ?? 'solid' },
    ]),
  );
}

/** The colour of each tool of one chart (`toolStyles` without the marks). */
export function toolColours(tools: Iterable<string>, palette: readonly string[]): ReadonlyMap<string, string> {
  return new Map([...toolStyles(tools, palette)].map(([name, style]) => [name, style.colour]));
}

/** The stripes' opacity, in the ink a label on the bar is written in. */
export const MARK_ALPHA = 0.6;

/** A legend swatch's CSS `background` for `style`, its stripes in `ink` (a CSS colour) as the canvas draws them. */
export function markBackground(style: ToolStyle, ink: string): string {
  const rgb = parseCssColor(ink);
  const line = rgb ? `rgba(${rgb.r}, ${rgb.g}, ${rgb.b}, ${MARK_ALPHA})` : ink;
  const stripes = (angle: number) => `repeating-linear-gradient(${angle}deg, ${line} 0 1.5px, transparent 1.5px 5px)`;
  const layers =
    style.mark === 'stripes'
      ? [stripes(-45)]
      : style.mark === 'back-stripes'
        ? [stripes(45)]
        : style.mark === 'cross'
          ? [stripes(-45), stripes(45)]
          : [];
  return [...layers, style.colour].join(', ');
}

/** Every tool called in a waterfall, in name order. */
export function chartTools(lanes: readonly { readonly calls: readonly { readonly tool: string }[] }[]): string[] {
  return [...new Set(lanes.flatMap((l) => l.calls.map((c) => c.tool)))].sort();
}
