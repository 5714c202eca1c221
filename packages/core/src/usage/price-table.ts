import type { ModelPrice, PriceTable } from './pricing.js';

const M = 1_000_000;

/** Rates given in USD per million tokens: input, output, 5-minute cache write, 1-hour cache write, cache read. */
function perMillion(input: number, output: number, write5m: number, write1h: number, read: number): ModelPrice {
  return {
    input: input / M,
    output: output / M,
    cacheWrite5m: write5m / M,
    cacheWrite1h: write1h / M,
    cacheRead: read / M,
  };
}

const opus4 = perMillion(15, 75, 18.75, 30, 1.5);
const opus45 = perMillion(5, 25, 6.25, 10, 0.5);
const sonnet = perMillion(3, 15, 3.75, 6, 0.3);
/** Sonnet 4 and 4.5 with the 1M context window: requests above 200k input tokens. */
const sonnetLong: ModelPrice = {
  ...sonnet,
  tiers: [{ ...perMillion(6, 22.5, 7.5, 12, 0.6), aboveTokens: 200_000 }],
};

/**
 * Google's Gemini list prices (standard tier, text): no cache-write charge (implicit caching), cache reads at a tenth
 * of the input rate, thoughts billed as output. Gemini 2.5 Pro bills a whole request at the higher rates when its
 * prompt is above 200k tokens.
 */
function gemini(input: number, output: number, read: number): ModelPrice {
  return perMillion(input, output, input, input, read);
}
const gemini25Pro: ModelPrice = {
  ...gemini(1.25, 10, 0.125),
  tiers: [{ ...gemini(2.5, 15, 0.25), aboveTokens: 200_000 }],
};

/**
 * OpenAI's list prices (standard tier) for the models Codex CLI sessions name: input, output and cached input per
 * million tokens. OpenAI bills no cache writes apart (they are input). Reasoning tokens are output tokens.
 * GPT-5.5 bills a whole request above 272k input tokens at its long-context rates. Models without a published price
 * here (gpt-5.4, gpt-5.6-*) stay unpriced and are named as such.
 */
const openai = (input: number, output: number, cachedInput: number) =>
  perMillion(input, output, input, input, cachedInput);
const gpt5 = openai(1.25, 10, 0.125);
const gpt52 = openai(1.75, 14, 0.175);
const gpt55: ModelPrice = { ...openai(5, 30, 0.5), tiers: [{ ...openai(10, 45, 1), aboveTokens: 272_000 }] };

/**
 * Alibaba Cloud's Qwen3 Coder Plus (international list price): four tiers by the request's input tokens, the whole
 * request at its tier's rates; explicit cache writes at 125 % of input and hits at 10 %, as LiteLLM lists them.
 */
const qwen = (input: number, output: number) => perMillion(input, output, input * 1.25, input * 1.25, input / 10);
const qwenCoderPlus: ModelPrice = {
  ...qwen(1, 5),
  tiers: [
    { ...qwen(1.8, 9), aboveTokens: 32_000 },
    { ...qwen(3, 15), aboveTokens: 128_000 },
    { ...qwen(6, 60), aboveTokens: 256_000 },
  ],
};

/**
 * The price table shipped with AgentDash, used offline. Anthropic's list prices per model (standard tier), as
 * published and as ccusage 20.0.24's offline table has them on the date below; Google's Gemini API list prices
 * (standard tier, text), OpenAI's for the GPT-5 models Codex CLI uses and Alibaba Cloud's for Qwen Code's, as listed
 * on the same date. Newer prices:
 * `--prices FILE` (this shape, or LiteLLM's `model_prices_and_context_window.json`).
 */
export const defaultPriceTable: PriceTable = {
  date: '2026-11-23',
  source: 'built-in table (Anthropic, Google Gemini and OpenAI list prices)',
  models: {
    'claude-3-opus': opus4,
    'claude-opus-4': opus4,
    'claude-opus-4-0': opus4,
    'claude-opus-4-1': opus4,
    'claude-opus-4-5': opus45,
    'claude-opus-4-6': opus45,
    'claude-opus-4-7': opus45,
    'claude-opus-4-8': opus45,
    'claude-opus-5': opus45,
    'claude-fable-5': perMillion(10, 50, 12.5, 20, 1),
    // Claude 3 Sonnet (claude-3-sonnet-20240229): $3 / $15 per million tokens as Anthropic listed it; it was never
    // offered with prompt caching, so its cache rates (Sonnet's) are never charged.
    'claude-3-sonnet': sonnet,
    'claude-3-5-sonnet': sonnet,
    'claude-3-7-sonnet': sonnet,
    'claude-sonnet-4': sonnetLong,
    'claude-sonnet-4-0': sonnetLong,
    'claude-sonnet-4-5': sonnetLong,
    'claude-sonnet-4-6': sonnet,
    'claude-sonnet-5': perMillion(2, 10, 2.5, 4, 0.2),
    'claude-3-haiku': perMillion(0.25, 1.25, 0.3, 0.5, 0.03),
    'claude-3-5-haiku': perMillion(0.8, 4, 1, 1.6, 0.08),
    'claude-haiku-4-5': perMillion(1, 5, 1.25, 2, 0.1),
    // Gemini models seen in Gemini CLI sessions (corpus and wild files). Not priced: gemini-3.8-flash (the
    // corpus's scripted API), for which no list price is published in the sources this table is taken from.
    'gemini-2.5-pro': gemini25Pro,
    'gemini-2.5-flash': gemini(0.3, 2.5, 0.03),
    'gemini-2.5-flash-lite': gemini(0.1, 0.4, 0.01),
    'gemini-3-flash-preview': gemini(0.5, 3, 0.05),
    'gpt-5': gpt5,
    'gpt-5-codex': gpt5,
    'gpt-5-mini': openai(0.25, 2, 0.025),
    'gpt-5-nano': openai(0.05, 0.4, 0.005),
    'gpt-5.1': gpt5,
    'gpt-5.1-codex': gpt5,
    'gpt-5.1-codex-max': gpt5,
    'gpt-5.1-codex-mini': openai(0.25, 2, 0.025),
    'gpt-5.2': gpt52,
    'gpt-5.2-codex': gpt52,
    'gpt-5.3-codex': gpt52,
    'gpt-5.5': gpt55,
    // The model Copilot CLI was recorded with (BYOK); Copilot's own models are priced by the Claude and GPT rows
    // (its dotted Claude names are normalized). Not priced: gpt-5.3-codex-spark, gpt-5.4-mini (no list price in
    // these sources). Copilot bills premium requests, not tokens: a Copilot session's cost is the list price of
    // the tokens its models used.
    'gpt-4.1': openai(2, 8, 0.5),
    // Models named in the Aider histories collected for issue 37 (the OpenCode recording used gpt-4.1): GPT-4o at
    // OpenAI's list price, Gemini 2.5 Pro's preview ids at 2.5 Pro's.
    'gpt-4o': openai(2.5, 10, 1.25),
    'gemini-2.5-pro-preview-05-06': gemini25Pro,
    'gemini-2.5-pro-preview-06-05': gemini25Pro,
    // 2023 models of the Aider histories, at the list prices of when those runs were made (Aug–Sep 2023): OpenAI's
    // GPT-4 (8k) $30 / $60, GPT-3.5 Turbo (0613) $1.50 / $2 and its 16k model $3 / $4 per million tokens — the rates
    // Aider's own report of those runs used (`945 prompt tokens, 194 completion tokens, $0.039990 cost`); Anthropic's
    // Claude 2 $11.02 / $32.68 and Claude Instant 1 $1.63 / $5.51 (its price list of July 2023, as LiteLLM's
    // `model_prices_and_context_window.json` listed them). None had prompt caching. Not priced: PaLM 2
    // (`palm-2-codechat-bison`), which Google billed per character, not per token.
    'gpt-4': openai(30, 60, 30),
    'gpt-3.5-turbo': openai(1.5, 2, 1.5),
    'gpt-3.5-turbo-16k': openai(3, 4, 3),
    'claude-2': perMillion(11.02, 32.68, 11.02, 11.02, 11.02),
    'claude-instant': perMillion(1.63, 5.51, 1.63, 1.63, 1.63),
    'claude-instant-1': perMillion(1.63, 5.51, 1.63, 1.63, 1.63),
    // Models of the 2024 Aider histories: GPT-4o mini at OpenAI's list price ($0.15 / $0.60, cached input $0.075);
    // DeepSeek Coder at DeepSeek's API price of July 2024 ($0.14 / $0.28 per million; cache hits $0.014 from Aug 2024).
    'gpt-4o-mini': openai(0.15, 0.6, 0.075),
    'deepseek-coder': perMillion(0.14, 0.28, 0.14, 0.14, 0.014),
    // OpenRouter's listed price for Qwen3 235B A22B (no cache rates listed), keyed by the id Aider names it with:
    // the same model bought elsewhere is priced otherwise, so its bare id stays unpriced. Not priced: a local LM
    // Studio model (no per-token price exists).
    'openrouter/qwen/qwen3-235b-a22b': openai(0.455, 1.82, 0.455),
    // Qwen Code's default model at Alibaba Cloud Model Studio's international list price, billed by request size.
    'qwen3-coder-plus': qwenCoderPlus,
    'qwen3-coder-plus-2025-07-22': qwenCoderPlus,
    'qwen3-coder-plus-2025-09-23': qwenCoderPlus,
  },
};
