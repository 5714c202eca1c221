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

export interface ModelPrice extends TokenRates {
  /**
   * Long-context rates: a request whose input side (input + cache writes + cache reads) is above `thresholdTokens` is
   * billed entirely at these rates, output included (Anthropic's rule for 1M-context requests).
   */
  readonly longContext?: TokenRates & { readonly thresholdTokens: number };
}

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
  id = id.replace(/^(claude-(?:opus|sonnet|haiku)-\d+)\.(\d+)/, '$1-$2');
  return id;
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

/** Whether one response is billed at long-context rates. */
export function isLongContext(price: ModelPrice, tokens: TokenCounts): boolean {
  return price.longContext !== undefined && promptTokens(tokens) > price.longContext.thresholdTokens;
}

/** The cost in USD of one API response with these tokens. */
export function responseCost(price: ModelPrice, tokens: TokenCounts): number {
  return tokensCost(isLongContext(price, tokens) && price.longContext ? price.longContext : price, tokens);
}

/** Prices from `override` win; models only in `base` stay. */
export function mergePriceTables(base: PriceTable, override: PriceTable): PriceTable {
  return {
    date: override.date,
    source: `${override.source}, then ${base.source}`,
    models: { ...base.models, ...override.models },
  };
}
