import { type ModelPrice, normalizeModelId, type PriceTable, type PriceTier, type TokenRates } from './pricing.js';

/** A problem found while reading a price file: the entry is skipped, the rest is kept. */
export interface PriceIssue {
  readonly model: string;
  readonly message: string;
}

function rate(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** LiteLLM's rates of one entry or tier (USD per token; the 1-hour write defaults to twice input, as Anthropic bills). */
function liteLlmRates(entry: Record<string, unknown>): TokenRates | undefined {
  const input = rate(entry.input_cost_per_token);
  const output = rate(entry.output_cost_per_token);
  if (input === undefined || output === undefined) return undefined;
  return {
    input,
    output,
    cacheWrite5m: rate(entry.cache_creation_input_token_cost) ?? input * 1.25,
    cacheWrite1h: rate(entry.cache_creation_input_token_cost_above_1hr) ?? input * 2,
    cacheRead: rate(entry.cache_read_input_token_cost) ?? input * 0.1,
  };
}

/**
 * LiteLLM's `tiered_pricing` (`[{ range: [from, to], input_cost_per_token, … }]`, as it lists Alibaba's Qwen models):
 * the tier from 0 is the base, each other one applies above its `from`.
 */
function fromTiered(list: readonly unknown[]): ModelPrice | string {
  const tiers: PriceTier[] = [];
  for (const item of list) {
    const range = isObj(item) && Array.isArray(item.range) ? rate(item.range[0]) : undefined;
    const rates = isObj(item) ? liteLlmRates(item) : undefined;
    if (range === undefined || rates === undefined) return 'a tiered_pricing entry without range or token prices';
    tiers.push({ ...rates, aboveTokens: range });
  }
  tiers.sort((a, b) => a.aboveTokens - b.aboveTokens);
  const [base, ...rest] = tiers;
  if (base === undefined || base.aboveTokens !== 0) return 'tiered_pricing does not start at 0 tokens';
  const { aboveTokens: _, ...baseRates } = base;
  return { ...baseRates, tiers: rest };
}

/** One LiteLLM entry: flat rates, with long-context rates above 200k tokens where listed, or `tiered_pricing`. */
function fromLiteLlm(entry: Record<string, unknown>): ModelPrice | string {
  const base = liteLlmRates(entry);
  if (base === undefined) {
    if (Array.isArray(entry.tiered_pricing)) return fromTiered(entry.tiered_pricing);
    return 'no input_cost_per_token/output_cost_per_token';
  }
  const longInput = rate(entry.input_cost_per_token_above_200k_tokens);
  if (longInput === undefined) return base;
  const long: PriceTier = {
    aboveTokens: 200_000,
    input: longInput,
    output: rate(entry.output_cost_per_token_above_200k_tokens) ?? base.output,
    cacheWrite5m: rate(entry.cache_creation_input_token_cost_above_200k_tokens) ?? longInput * 1.25,
    cacheWrite1h: rate(entry.cache_creation_input_token_cost_above_1hr_above_200k_tokens) ?? longInput * 2,
    cacheRead: rate(entry.cache_read_input_token_cost_above_200k_tokens) ?? longInput * 0.1,
  };
  return { ...base, tiers: [long] };
}

function ownRates(entry: Record<string, unknown>): TokenRates | string {
  const keys = ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const;
  const rates: Partial<Record<(typeof keys)[number], number>> = {};
  for (const key of keys) {
    const value = rate(entry[key]);
    if (value === undefined) return `${key} is not a non-negative number`;
    rates[key] = value;
  }
  return rates as TokenRates;
}

/**
 * AgentDash's own entry: the base rates, and `tiers: [{ aboveTokens, …rates }]` (or, as files written before tiers
 * have it, one `longContext: { thresholdTokens, …rates }`).
 */
function fromOwn(entry: Record<string, unknown>): ModelPrice | string {
  const base = ownRates(entry);
  if (typeof base === 'string') return base;
  const listed = Array.isArray(entry.tiers)
    ? entry.tiers
    : isObj(entry.longContext)
      ? [{ ...entry.longContext, aboveTokens: entry.longContext.thresholdTokens }]
      : [];
  const tiers: PriceTier[] = [];
  for (const item of listed) {
    const rates = isObj(item) ? ownRates(item) : 'not an object';
    const above = isObj(item) ? rate(item.aboveTokens) : undefined;
    if (typeof rates === 'string') return `a tier: ${rates}`;
    if (above === undefined) return 'a tier without aboveTokens';
    tiers.push({ ...rates, aboveTokens: above });
  }
  tiers.sort((a, b) => a.aboveTokens - b.aboveTokens);
  return tiers.length === 0 ? base : { ...base, tiers };
}

/**
 * A price table from parsed JSON: AgentDash's own shape (`{ date, source?, models: { id: { input, output,
 * cacheWrite5m, cacheWrite1h, cacheRead, tiers? } } }`, USD per token) or LiteLLM's
 * `model_prices_and_context_window.json` (`{ "claude-…": { input_cost_per_token, … } }`). LiteLLM entries that are
 * not chat models or carry no token prices are skipped silently; malformed entries become issues.
 */
export function parsePriceFile(json: unknown, fallbackDate: string): { table: PriceTable; issues: PriceIssue[] } {
  const issues: PriceIssue[] = [];
  const models: Record<string, ModelPrice> = {};
  if (!isObj(json)) {
    return {
      table: { date: fallbackDate, source: 'price file', models },
      issues: [{ model: '', message: 'not a JSON object' }],
    };
  }
  if (isObj(json.models)) {
    for (const [id, entry] of Object.entries(json.models)) {
      const price = isObj(entry) ? fromOwn(entry) : 'not an object';
      if (typeof price === 'string') issues.push({ model: id, message: price });
      else models[normalizeModelId(id)] = price;
    }
    const date = typeof json.date === 'string' ? json.date : fallbackDate;
    const source = typeof json.source === 'string' ? json.source : 'price file';
    return { table: { date, source, models }, issues };
  }
  const plain = new Set<string>();
  for (const [id, entry] of Object.entries(json)) {
    if (id === 'sample_spec' || !isObj(entry)) continue;
    if (entry.mode !== undefined && entry.mode !== 'chat') continue;
    const tiered = Array.isArray(entry.tiered_pricing);
    if (entry.input_cost_per_token === undefined && entry.output_cost_per_token === undefined && !tiered) continue;
    const price = fromLiteLlm(entry);
    if (typeof price === 'string') issues.push({ model: id, message: price });
    else {
      const key = normalizeModelId(id);
      // A plain id (`claude-…`) wins over provider-prefixed variants (`bedrock/…`, `vertex_ai/…`), else the first.
      const isPlain = !id.includes('/') && !id.includes('.');
      if (models[key] === undefined || (isPlain && !plain.has(key))) models[key] = price;
      if (isPlain) plain.add(key);
    }
  }
  return { table: { date: fallbackDate, source: 'LiteLLM price file', models }, issues };
}
