import { claudeModelId } from '../model/model-id.js';
import { promptTokens, type TokenCounts } from './tokens.js';

/** USD per token of each kind. */
export interface TokenRates {
  readonly input: number;
  readonly output: number;
  /** Cache write with the default 5-minute lifetime. */
  readonly cacheWrite5m: number;
  /** Cache write with a 1-hour lifetime. */
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
}

/** Rates that apply to a request whose input side (input + cache writes + cache reads) is above `aboveTokens`. */
export interface PriceTier extends TokenRates {
  readonly aboveTokens: number;
}

export interface ModelPrice extends TokenRates {
  /**
   * Rates by request size, ascending by `aboveTokens`: a request is billed entirely, output included, at the last
   * tier it is above (Anthropic's and Google's rule for requests above 200k tokens; Alibaba's four tiers for Qwen
   * coder models). Without tiers, or below the first, the base rates apply.
   */
  readonly tiers?: readonly PriceTier[];
}

/**
 * Every tier boundary a built-in price uses. Stored usage is summed per band between them (see `promptBand`), so a
 * price file with another boundary is applied from the first stored boundary at or above it.
 */
export const PROMPT_BOUNDARIES: readonly number[] = [32_000, 128_000, 200_000, 256_000, 272_000];

export interface PriceTable {
  /** When the prices were taken (YYYY-MM-DD). */
  readonly date: string;
  /** Where they come from. */
  readonly source: string;
  /** Keyed by normalized model id (see `normalizeModelId`). */
  readonly models: Readonly<Record<string, ModelPrice>>;
}

/**
 * The id a price is looked up by: lower case, without a provider prefix (`anthropic/`, `bedrock/…/`,
 * `us.anthropic.`), a context suffix (`[1m]`), a Vertex `@date` or Bedrock `-v1:0` suffix, or a `-YYYYMMDD` date;
 * a Claude version written with a dot, as GitHub Copilot names models (`claude-sonnet-4.6`), is Anthropic's `4-6`.
 * @example normalizeModelId('us.anthropic.claude-sonnet-4-5-20250929-v1:0') // 'claude-sonnet-4-5'
 */
export function normalizeModelId(model: string): string {
  let id = model.trim().toLowerCase();
  id = id.replace(/\[[^\]]*\]$/, '');
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '');
  id = id.replace(/-v\d+(?::\d+)?$/, '');
  id = id.replace(/@\d{8}$/, '');
  id = id.replace(/-\d{8}$/, '');
  id = id.replace(/-latest$/, '');
  return claudeModelId(id);
}

/** The price of a model, or `undefined` when the table does not know it. */
export function findPrice(table: PriceTable, model: string): ModelPrice | undefined {
  return table.models[model] ?? table.models[normalizeModelId(model)];
}

/** Tokens × rates, every token at these rates (use `responseCost` for one response: it picks the tier). */
export function tokensCost(rates: TokenRates, t: TokenCounts): number {
  const oneHour = Math.min(t.cacheCreation1hInputTokens, t.cacheCreationInputTokens);
  return (
    t.inputTokens * rates.input +
    t.outputTokens * rates.output +
    (t.cacheCreationInputTokens - oneHour) * rates.cacheWrite5m +
    oneHour * rates.cacheWrite1h +
    t.cacheReadInputTokens * rates.cacheRead
  );
}

/** The rates a request of `prompt` input-side tokens is billed at. */
export function ratesFor(price: ModelPrice, prompt: number): TokenRates {
  let rates: TokenRates = price;
  for (const tier of price.tiers ?? []) if (prompt > tier.aboveTokens) rates = tier;
  return rates;
}

/** How many of `PROMPT_BOUNDARIES` a request of `prompt` input-side tokens is above (0 … 5). */
export function promptBand(prompt: number): number {
  let band = 0;
  while (band < PROMPT_BOUNDARIES.length && prompt > (PROMPT_BOUNDARIES[band] ?? Infinity)) band++;
  return band;
}

/**
 * The rates of requests summed in one band: those of a request just above the band's lower boundary, which are
 * every request's in the band when the price's tiers start at boundaries (as every built-in price's do).
 */
export function bandRates(price: ModelPrice, band: number): TokenRates {
  return band <= 0 ? price : ratesFor(price, (PROMPT_BOUNDARIES[band - 1] ?? Infinity) + 1);
}

/** The cost in USD of one API response with these tokens. */
export function responseCost(price: ModelPrice, tokens: TokenCounts): number {
  return tokensCost(ratesFor(price, promptTokens(tokens)), tokens);
}

/** Prices from `override` win; models only in `base` stay. */
export function mergePriceTables(base: PriceTable, override: PriceTable): PriceTable {
  return {
    date: override.date,
    source: `${override.source}, then ${base.source}`,
    models: { ...base.models, ...override.models },
  };
}

/**
 * A cost as every report gives it: to a billionth of a dollar. Sums of the same parts in another order differ in their
 * last bits (0.0022050000000000004 against 0.002205): the list, usage and the dashboard then say the same figure.
 */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}
