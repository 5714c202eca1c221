/**
 * A response whose transcript kept the stream's first output count instead of its final one (FORMAT.md §8: Claude
 * Code writes each block record when the block ends, up to 2.1.2x with the `message_start` usage, whose output is 1
 * to 3 tokens; the final count reaches only records written after `message_delta`, and in some responses none is).
 * Its output is then unknown, and at least what its content took: each token stands for at most
 * `MAX_CHARS_PER_TOKEN` characters of its text, thinking and tool inputs (a generous bound: English text averages
 * about four). Below that, the recorded count cannot be the response's, and its output and cost are lower bounds.
 */
import type { ContentBlock } from '../model/content.js';
import type { Usage } from '../model/record.js';

/** Characters of content one output token stands for at most (UTF-16 units: a character outside the BMP is two). */
export const MAX_CHARS_PER_TOKEN = 64;

/**
 * Characters counted at most in one record's content (a tool input of millions of items is not walked whole): the
 * floor of a larger record is this one's, still far above any count a stream starts with.
 */
const MAX_COUNTED_CHARS = MAX_CHARS_PER_TOKEN * 65_536;

/**
 * Output tokens `blocks` took at least (all of it, up to `MAX_COUNTED_CHARS`), when that is more than `recorded` (the
 * count the record carries); else undefined. The whole content is counted, not only enough to prove this record's
 * count short: a response compares the floor with its other records' counts too (`responseFloor`).
 * @example outputFloorOf([{ kind: 'text', text: 'x'.repeat(200) }], 1) // 4
 */
export function outputFloorOf(blocks: readonly ContentBlock[], recorded: number): number | undefined {
  const limit = MAX_COUNTED_CHARS;
  let chars = 0;
  for (const block of blocks) {
    if (block.kind === 'text') chars += block.text.length;
    else if (block.kind === 'thinking') chars += block.thinking.length;
    else if (block.kind === 'tool-use' || block.kind === 'server-tool-use')
      chars += block.name.length + sizeUpTo(block.input, limit - chars + 1);
    if (chars > limit) break;
  }
  const floor = Math.ceil(chars / MAX_CHARS_PER_TOKEN);
  return floor > recorded ? floor : undefined;
}

/** Characters of `value`'s strings, keys and numbers, counted up to `limit` (then any more than it). */
function sizeUpTo(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (typeof value !== 'object' || value === null) return 0;
  let size = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      size += sizeUpTo(item, limit - size);
      if (size > limit) break;
    }
    return size;
  }
  for (const [key, item] of Object.entries(value)) {
    size += key.length + sizeUpTo(item, limit - size - key.length);
    if (size > limit) break;
  }
  return size;
}

/**
 * The larger of two floors of one response (each from one of its records), kept only while it is above the
 * response's output count so far.
 */
export function responseFloor(a: number | undefined, b: number | undefined, output: number): number | undefined {
  const floor = Math.max(a ?? 0, b ?? 0);
  return floor > output ? floor : undefined;
}

/**
 * A response's usage from two of its block records (`held` first): the one with the larger output count (the later
 * on a tie: later records carry the final usage), with the larger of their floors while it is above that count.
 */
export function laterUsage(held: Usage | undefined, next: Usage): Usage {
  if (held === undefined) return next;
  const kept = next.outputTokens >= held.outputTokens ? next : held;
  const floor = responseFloor(held.outputAtLeast, next.outputAtLeast, kept.outputTokens);
  if (floor === kept.outputAtLeast) return kept;
  const { outputAtLeast: _, ...counts } = kept;
  return floor === undefined ? counts : { ...counts, outputAtLeast: floor };
}
