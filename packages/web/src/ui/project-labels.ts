import { shortPath } from './format';

/** A folder name longer than this is cut in a label (a Gemini project's folder is a 64-digit hash). */
const LONG_SEGMENT = 24;
/** By whole characters (graphemes): never half an emoji, which showed as � or as another emoji (a review). */
const cut = (segment: string) => (segment.length > LONG_SEGMENT ? `${firstCharacters(segment, 12)}…` : segment);

let graphemes: Intl.Segmenter | undefined;
function firstCharacters(text: string, n: number): string {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let out = '';
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (count++ === n) break;
    out += segment;
  }
  return out;
}

/** The path's last `k` folders (long ones cut), after `…/`; the path itself when it has no more than `k`. */
function tail(path: string, k: number): string {
  const segments = path.split(/[\\/]/).filter(Boolean);
  return segments.length <= k ? path : `…/${segments.slice(-k).map(cut).join('/')}`;
}

/**
 * Short labels for project paths that tell apart the paths they label: each path's last two folders (`shortPath`'s
 * label, long folder names cut), and for paths that would share a label (one Gemini project hash under three homes:
 * three `…/tmp/7e8989f7…`), as many folders more as tell them apart (`…/home-1/tmp/7e8989f71805…`), up to the whole
 * path.
 */
export function projectLabels(paths: readonly string[]): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  let pending = [...new Set(paths)];
  for (let k = 2; pending.length > 0; k++) {
    const byLabel = new Map<string, string[]>();
    for (const p of pending) {
      const label = tail(p, k);
      byLabel.set(label, [...(byLabel.get(label) ?? []), p]);
    }
    pending = [];
    for (const [label, same] of byLabel) {
      const whole = same.every((p) => label === p);
      if (same.length === 1 || whole || k > 64) for (const p of same) labels.set(p, same.length === 1 ? label : p);
      else pending.push(...same);
    }
  }
  return labels;
}

/** A path's label among `paths` (`projectLabels`), `shortPath`'s when it is not among them. */
export const labelOf = (labels: ReadonlyMap<string, string>, path: string): string =>
  labels.get(path) ?? shortPath(path);
