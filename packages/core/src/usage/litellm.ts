import { type ModelPrice, normalizeModelId, type PriceTable, type TokenRates } from './pricing.js';

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

/** One LiteLLM entry (USD per token; the 1-hour write defaults to twice the input rate, as Anthropic bills it). */
function fromLiteLlm(entry: Record<string, unknown>): ModelPrice | string {
  const input = rate(entry.input_cost_per_token);
  const output = rate(entry.output_cost_per_token);
  if (input === undefined || output === undefined) return 'no input_cost_per_token/output_cost_per_token';
  const base: TokenRates = {
    input,
    output,
    cacheWrite5m: rate(entry.cache_creation_input_token_cost) ?? input * 1.25,
    cacheWrite1h: rate(entry.cache_creation_input_token_cost_above_1hr) ?? input * 2,
    cacheRead: rate(entry.cache_read_input_token_cost) ?? input * 0.1,
  };
  const longInput = rate(entry.input_cost_per_token_above_200k_tokens);
  if (longInput === undefined) return base;
  const longOutput = rate(entry.output_cost_per_token_above_200k_tokens) ?? output;
  return {
    ...base,
    longContext: {
      thresholdTokens: 200_000,
      input: longInput,
      output: longOutput,
      cacheWrite5m: rate(entry.cache_creation_input_token_cost_above_200k_tokens) ?? longInput * 1.25,
      cacheWrite1h: rate(entry.cache_creation_input_token_cost_above_1hr_above_200k_tokens) ?? longInput * 2,
      cacheRead: rate(entry.cache_read_input_token_cost_above_200k_tokens) ?? longInput * 0.1,
    },
  };
}

function fromOwn(entry: Record<string, unknown>): ModelPrice | string {
  const keys = ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const;
  const rates: Partial<Record<(typeof keys)[number], number>> = {};
  for (const key of keys) {
    const value = rate(entry[key]);
    if (value === undefined) return `${key} is not a non-negative number`;
    rates[key] = value;
  }
  const base = rates as TokenRates;
  if (!isObj(entry.longContext)) return base;
  const long = fromOwn(entry.longContext);
  const threshold = rate(entry.longContext.thresholdTokens);
  if (typeof long === 'string' || threshold === undefined) return base;
  return { ...base, longContext: { ...long, thresholdTokens: threshold } };
}

/**
 * A price table from parsed JSON: AgentDash's own shape (`{ date, source?, models: { id: { input, output,
 * cacheWrite5m, cacheWrite1h, cacheRead, longContext? } } }`, USD per token) or LiteLLM's
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
    if (entry.input_cost_per_token === undefined && entry.output_cost_per_token === undefined) continue;
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
