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
 * The colour of each tool of one chart: the tools in name order take the palette's colours in turn, so one set of
 * tools is always drawn alike and any two of them (up to the palette's length) differ. Past it, colours repeat.
 */
export function toolColours(tools: Iterable<string>, palette: readonly string[]): ReadonlyMap<string, string> {
  const names = [...new Set(tools)].sort();
  return new Map(names.map((name, i) => [name, palette[i % palette.length] ?? '#888888']));
}

/** Every tool called in a waterfall, in name order. */
export function chartTools(lanes: readonly { readonly calls: readonly { readonly tool: string }[] }[]): string[] {
  return [...new Set(lanes.flatMap((l) => l.calls.map((c) => c.tool)))].sort();
}
