/**
 * Numbers as people read them, the same in the CLI and the dashboard.
 * @module
 */

import { modelList } from './text.js';

const EM_DASH = '—';

type Maybe = number | null | undefined;

function missing(n: Maybe): n is null | undefined {
  return n === null || n === undefined || !Number.isFinite(n);
}

/**
 * A whole number's digits in groups of three (`12,345`, `-1,234`), as `toLocaleString('en-US')` writes them, without
 * the ICU number formatter: its first use in a process loads ICU's number data, which a CLI run printing one table
 * would pay.
 */
export function groupDigits(n: number): string {
  const whole = Math.round(n);
  return String(whole === 0 ? 0 : whole).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Every digit with thousands separators: `2,746`. `—` when unknown. */
export function formatCount(n: Maybe): string {
  if (missing(n)) return EM_DASH;
  return groupDigits(n);
}

/**
 * A short figure: `9,876`, `12.3k`, `4.5M`, `1.23B`. One rule for tokens, messages and calls.
 * @example formatCompact(12_900_000) // '12.9M'
 */
export function formatCompact(n: Maybe): string {
  if (missing(n)) return EM_DASH;
  const a = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  if (a < 10_000) return formatCount(n);
  // Round first so that 999,960 reads `1.0M`, never `1000.0k`.
  if (Math.round(a / 100) < 10_000) return `${sign}${(a / 1000).toFixed(1)}k`;
  if (Math.round(a / 100_000) < 10_000) return `${sign}${(a / 1_000_000).toFixed(1)}M`;
  return `${sign}${(a / 1_000_000_000).toFixed(2)}B`;
}

/** Token counts: the same rule as {@link formatCompact}. */
export const formatTokens = formatCompact;

/**
 * What a cost (a session's, a usage group's, a resume's copies') leaves out, as the index and the usage reports say
 * it; a list absent is none.
 */
export interface CostGaps {
  /** Models without a price: their cost is not in it. */
  readonly unpricedModels?: readonly string[] | undefined;
  /** Models some of whose responses recorded no input (Copilot CLI 1.0.64): only their output is in it. */
  readonly inputUnrecordedModels?: readonly string[] | undefined;
  /** Models some of whose responses kept only the stream's first output count (Claude Code): their output is more. */
  readonly outputUnrecordedModels?: readonly string[] | undefined;
}

/**
 * Whether a known cost is only a lower bound: some model has no price, some response recorded no input, or some
 * kept only the stream's first output count. The one rule of the `+ ?` the CLI and the dashboard write after a cost.
 * @example costIsLowerBound({ unpricedModels: [], inputUnrecordedModels: ['gpt-5'] }) // true
 */
export function costIsLowerBound(gaps: CostGaps | undefined): boolean {
  return (
    gaps !== undefined &&
    ((gaps.unpricedModels?.length ?? 0) > 0 || inputIsLowerBound(gaps) || outputIsLowerBound(gaps))
  );
}

/**
 * What a lower-bound cost leaves out, in words (the dashboard's tooltip on it); undefined when it leaves out nothing.
 * @example costGapsNote({ unpricedModels: ['x'] }) // 'No price for x'
 */
export function costGapsNote(gaps: CostGaps): string | undefined {
  const notes: string[] = [];
  const unpriced = gaps.unpricedModels ?? [];
  if (unpriced.length > 0) notes.push(`No price for ${modelList(unpriced)}`);
  const unrecorded = gaps.inputUnrecordedModels ?? [];
  if (unrecorded.length > 0)
    notes.push(`No input recorded for some responses of ${modelList(unrecorded)}: only what was recorded is counted`);
  const cut = gaps.outputUnrecordedModels ?? [];
  if (cut.length > 0)
    notes.push(`Some responses of ${modelList(cut)} recorded no final output count: their output is more than counted`);
  return notes.length > 0 ? notes.join('; ') : undefined;
}

/**
 * What a usage total's counts leave out, one sentence per kind (a report's warning: the CLI's stderr, the Usage
 * page): models some of whose responses recorded no input, and those some of whose responses kept only the stream's
 * first output count. Empty when the counts are whole. (A cost's tooltip says it shorter: {@link costGapsNote}.)
 * @example unrecordedNotes({ outputUnrecordedModels: ['claude-sonnet-4'] })[0]?.kind // 'output'
 */
export function unrecordedNotes(
  gaps: Pick<CostGaps, 'inputUnrecordedModels' | 'outputUnrecordedModels'> | undefined,
): readonly { readonly kind: 'input' | 'output'; readonly text: string }[] {
  const notes: { kind: 'input' | 'output'; text: string }[] = [];
  const input = gaps?.inputUnrecordedModels ?? [];
  if (input.length > 0) {
    const text = `No input recorded for some responses of ${modelList(input)}: their cost counts what was recorded, a lower bound (+ ?)`;
    notes.push({ kind: 'input', text });
  }
  const output = gaps?.outputUnrecordedModels ?? [];
  if (output.length > 0) {
    const text = `Some responses of ${modelList(output)} recorded no final output count (the stream's first count, or none): their output and cost are lower bounds (+ ?)`;
    notes.push({ kind: 'output', text });
  }
  return notes;
}

/**
 * Dollars: `$1.23`, `$0.042`; `unknown` when no price is known; `$1.23 + ?` when it is a lower bound (some models
 * have no price, or some responses recorded no input or not their output: {@link costIsLowerBound}).
 * @example formatCost(0.0421) // '$0.042'
 * formatCost(0.29, { unpricedModels: [], inputUnrecordedModels: ['claude-sonnet-4.6'] }) // '$0.29 + ?'
 */
export function formatCost(cost: Maybe, gaps?: CostGaps): string {
  if (missing(cost)) return 'unknown';
  const text = cost >= 1 || cost === 0 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
  return costIsLowerBound(gaps) ? `${text} + ?` : text;
}

/** Bytes in binary units: `512 B`, `1.5 KiB`, `3.2 MiB`, `1.10 GiB`. */
export function formatBytes(n: Maybe): string {
  if (missing(n)) return EM_DASH;
  const a = Math.abs(n);
  if (a < 1024) return `${Math.round(n)} B`;
  if (Math.round((a / 1024) * 10) < 10240) return `${(n / 1024).toFixed(1)} KiB`;
  if (Math.round((a / 1024 / 1024) * 10) < 10240) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** A share: `0%`, `<1%`, `12.5%` (one decimal below 10%, whole percents above). */
export function formatPercent(rate: Maybe): string {
  if (missing(rate)) return EM_DASH;
  if (rate === 0) return '0%';
  const pct = rate * 100;
  if (Math.abs(pct) < 0.1) return '<0.1%';
  if (Math.abs(pct) < 10) return `${pct.toFixed(1)}%`;
  return `${Math.round(pct)}%`;
}

/** The noun for a count: `call` for one, `calls` for any other (for a count shown apart, in bold). */
export function nounFor(n: number, noun: string, nouns = `${noun}s`): string {
  return n === 1 ? noun : nouns;
}

/** `1 call`, `2 calls`: a count with its noun, singular when one. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(n)} ${nounFor(n, noun, nouns)}`;
}

/** Token counts of one or more API responses, as the usage model carries them. */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationInputTokens: number;
  readonly cacheReadInputTokens: number;
  /** The part of `outputTokens` spent on reasoning, when the agent reports it apart. */
  readonly reasoningOutputTokens?: number;
}

/** Token counts added up (e.g. over the models of a session). */
export function sumTokens(all: Iterable<TokenCounts>): TokenCounts {
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheCreationInputTokens = 0;
  let cacheReadInputTokens = 0;
  let reasoningOutputTokens = 0;
  for (const t of all) {
    reasoningOutputTokens += t.reasoningOutputTokens ?? 0;
    inputTokens += t.inputTokens;
    outputTokens += t.outputTokens;
    cacheCreationInputTokens += t.cacheCreationInputTokens;
    cacheReadInputTokens += t.cacheReadInputTokens;
  }
  const sum = { inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens };
  return reasoningOutputTokens > 0 ? { ...sum, reasoningOutputTokens } : sum;
}

/**
 * Input and cache tokens apart, never silently added: `1.2k in · 35.1k out · 12.9M cache read · 410.2k cache write`.
 * Parts that are zero are left out (`0 in` when all are). Where some responses recorded no input (`gaps`, as the
 * cost's: Copilot CLI 1.0.64), the input is a lower bound: `? in` when none was recorded, `1.2k + ? in` else; where
 * some kept only the stream's first output count (Claude Code), the output: `35.1k + ? out`.
 */
export function formatTokenParts(
  t: TokenCounts,
  gaps?: TokenGaps,
): readonly { readonly value: string; readonly label: string }[] {
  const parts = [
    { n: t.inputTokens, label: 'in' },
    { n: t.outputTokens, label: 'out' },
    // Part of the output, shown on its own (never added to it).
    { n: t.reasoningOutputTokens ?? 0, label: 'of which reasoning' },
    { n: t.cacheReadInputTokens, label: 'cache read' },
    { n: t.cacheCreationInputTokens, label: 'cache write' },
  ].filter((p, i) => i === 0 || p.n > 0);
  const inputUnknown = inputIsLowerBound(gaps);
  const outputUnknown = outputIsLowerBound(gaps);
  return parts.map((p, i) => ({
    value: formatTokensAtLeast(p.n, (i === 0 && inputUnknown) || (p.label === 'out' && outputUnknown)),
    label: p.label,
  }));
}

/** What makes token counts lower bounds (as their cost's {@link CostGaps}). */
export type TokenGaps = Pick<CostGaps, 'inputUnrecordedModels' | 'outputUnrecordedModels'>;

/** Whether some responses kept only the stream's first output count (`gaps`): their output, and any sum of it, is a lower bound. */
export function outputIsLowerBound(gaps?: Pick<CostGaps, 'outputUnrecordedModels'>): boolean {
  return (gaps?.outputUnrecordedModels?.length ?? 0) > 0;
}

/** Whether some responses recorded no input (`gaps`, as the cost's): their input, and any sum of it, is a lower bound. */
export function inputIsLowerBound(gaps?: Pick<CostGaps, 'inputUnrecordedModels'>): boolean {
  return (gaps?.inputUnrecordedModels?.length ?? 0) > 0;
}

/** A token count, or a lower bound of one: `?` when none was recorded, `1.2k + ?` when some was. */
export function formatTokensAtLeast(n: number, lowerBound: boolean): string {
  if (!lowerBound) return formatCompact(n);
  return n === 0 ? '?' : `${formatCompact(n)} + ?`;
}

/**
 * One response's output as a timeline gives it: `172 tokens out`; `1 + ? tokens out` when no record of it kept its
 * final count (`outputAtLeast` above the count: usage/output-floor.ts); empty without output.
 * @example formatResponseOutput({ outputTokens: 1, outputAtLeast: 3 }) // '1 + ? tokens out'
 */
export function formatResponseOutput(
  usage: { readonly outputTokens: number; readonly outputAtLeast?: number } | undefined,
): string {
  const out = usage?.outputTokens ?? 0;
  if (out <= 0) return '';
  const cut = usage?.outputAtLeast !== undefined && usage.outputAtLeast > out;
  return cut ? `${formatCompact(out)} + ? tokens out` : `${formatCompact(out)} ${nounFor(out, 'token')} out`;
}

/**
 * What a session's tokens line says when none of its responses recorded usage (an August 2025 Codex rollout writes no
 * token counts): unknown, not 0; undefined when some did (or it has no response). `usageByModel` is the transcript's.
 * @example noUsageText(2, {}) // 'unknown: none of its 2 responses recorded usage'
 */
export function noUsageText(responses: number, usageByModel: Readonly<Record<string, unknown>>): string | undefined {
  if (!(responses > 0) || Object.keys(usageByModel).length > 0) return undefined;
  return `unknown: none of its ${responses === 1 ? 'response' : `${responses} responses`} recorded usage`;
}

/** {@link formatTokenParts} as one line. */
export function formatTokenLine(t: TokenCounts, gaps?: TokenGaps): string {
  return formatTokenParts(t, gaps)
    .map((p) => `${p.value} ${p.label}`)
    .join(' · ');
}

/** How many images, in words: 'an image', '3 images' (a terminal or a Markdown document names what it cannot show). */
export function imagesWord(n: number): string {
  return n === 1 ? 'an image' : `${n} images`;
}
