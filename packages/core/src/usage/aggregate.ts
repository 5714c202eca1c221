import type { ResponseUsage } from './dedupe.js';
import {
  bandRates,
  findPrice,
  type ModelPrice,
  type PriceTable,
  responseCost,
  roundUsd,
  tokensCost,
} from './pricing.js';
import { addTokens, type TokenCounts, zeroTokens } from './tokens.js';

/**
 * A response with its cost; `undefined` when the price table does not know its model. `responses` is how many API
 * responses it stands for when it is a sum of several (a team server's responses summed per quarter-hour); 1 when
 * absent.
 */
export type PricedResponse<C = undefined> = ResponseUsage<C> & {
  readonly costUsd: number | undefined;
  readonly responses?: number;
};

/** A price table's lookup with each model's price found once (a report prices tens of thousands of responses). */
function priceFinder(table: PriceTable): (model: string) => ModelPrice | undefined {
  const prices = new Map<string, ModelPrice | undefined>();
  return (model) => {
    let price = prices.get(model);
    if (price === undefined && !prices.has(model)) {
      price = findPrice(table, model);
      prices.set(model, price);
    }
    return price;
  };
}

/** The cost of one response by one price table; `undefined` when the table does not know the model. */
export function responsePricer(table: PriceTable): (model: string, tokens: TokenCounts) => number | undefined {
  const priceOf = priceFinder(table);
  return (model, tokens) => {
    const price = priceOf(model);
    return price ? responseCost(price, tokens) : undefined;
  };
}

/**
 * The cost of responses of one model summed within one request-size band (core's `promptBand`), at the band's
 * rates, as the index prices a session's usage parts; `undefined` when the table does not know the model.
 */
export function bandPricer(
  table: PriceTable,
): (model: string, band: number, tokens: TokenCounts) => number | undefined {
  const priceOf = priceFinder(table);
  return (model, band, tokens) => {
    const price = priceOf(model);
    return price ? tokensCost(bandRates(price, band), tokens) : undefined;
  };
}

export function priceResponses<C>(responses: Iterable<ResponseUsage<C>>, table: PriceTable): PricedResponse<C>[] {
  const costOf = responsePricer(table);
  const out: PricedResponse<C>[] = [];
  for (const r of responses) out.push({ ...r, costUsd: costOf(r.model, r.tokens) });
  return out;
}

/**
 * What a set of responses costs, from the sum over its priced models: unknown (null) only when it has models and none
 * of them has a price; 0 when it has no model at all (no response was billed). With priced and unpriced models both,
 * the priced ones' sum (the set costs more, as its unpriced models say). The rule of every cost: a usage group's, a
 * session's.
 * @example knownCost(0, { priced: 0, unpriced: 0 }) // 0
 * knownCost(0, { priced: 0, unpriced: 1 }) // null
 */
export function knownCost(
  pricedUsd: number,
  models: { readonly priced: number; readonly unpriced: number },
): number | null {
  return models.priced > 0 || models.unpriced === 0 ? roundUsd(pricedUsd) : null;
}

/** Token totals of a set of responses of one model; `costUsd` is null when the model has no price. */
export interface ModelUsage extends TokenCounts {
  readonly responses: number;
  readonly costUsd: number | null;
}

/** Token totals of a set of responses, per model too. */
export interface UsageGroup extends TokenCounts {
  readonly responses: number;
  /**
   * The cost of the priced models; null when no model of the group has a price (never 0 for unknown prices); 0 for
   * a group without responses.
   * When `unpricedModels` is not empty, the group costs more than this.
   */
  readonly costUsd: number | null;
  /** Models of the group the price table does not know. */
  readonly unpricedModels: readonly string[];
  /**
   * Models some of whose responses recorded no input (`ResponseUsage.inputUnrecorded`): their cost is a lower bound.
   * Absent when there is none, as for every agent that records its usage whole.
   */
  readonly inputUnrecordedModels?: readonly string[];
  /**
   * Models some of whose responses kept only the stream's first output count (`ResponseUsage.outputUnrecorded`):
   * their output and cost are lower bounds. Absent when there is none.
   */
  readonly outputUnrecordedModels?: readonly string[];
  readonly models: Readonly<Record<string, ModelUsage>>;
  /** Earliest and latest response time (ms); null when none has a time. */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
}

interface MutableModel {
  responses: number;
  tokens: TokenCounts;
  cost: number;
  priced: boolean;
  inputUnrecorded: boolean;
  outputUnrecorded: boolean;
}

/** Adds responses up, per model. */
export class UsageAccumulator {
  private readonly models = new Map<string, MutableModel>();
  private firstMs: number | null = null;
  private lastMs: number | null = null;

  add(response: PricedResponse<unknown>): void {
    let m = this.models.get(response.model);
    if (m === undefined) {
      m = { responses: 0, tokens: zeroTokens, cost: 0, priced: true, inputUnrecorded: false, outputUnrecorded: false };
      this.models.set(response.model, m);
    }
    m.responses += response.responses ?? 1;
    m.tokens = addTokens(m.tokens, response.tokens);
    if (response.inputUnrecorded) m.inputUnrecorded = true;
    if (response.outputUnrecorded) m.outputUnrecorded = true;
    if (response.costUsd === undefined) m.priced = false;
    else m.cost += response.costUsd;
    const t = response.timestampMs;
    if (t !== undefined) {
      if (this.firstMs === null || t < this.firstMs) this.firstMs = t;
      if (this.lastMs === null || t > this.lastMs) this.lastMs = t;
    }
  }

  get isEmpty(): boolean {
    return this.models.size === 0;
  }

  result(): UsageGroup {
    let tokens = zeroTokens;
    let responses = 0;
    let cost = 0;
    let priced = 0;
    const unpriced: string[] = [];
    const unrecorded: string[] = [];
    const outputUnrecorded: string[] = [];
    const models: Record<string, ModelUsage> = {};
    const sorted = [...this.models.entries()].sort((a, b) => a[0].localeCompare(b[0]));
    for (const [model, m] of sorted) {
      tokens = addTokens(tokens, m.tokens);
      responses += m.responses;
      if (m.priced) {
        cost += m.cost;
        priced += 1;
      } else unpriced.push(model);
      if (m.inputUnrecorded) unrecorded.push(model);
      if (m.outputUnrecorded) outputUnrecorded.push(model);
      models[model] = { responses: m.responses, ...m.tokens, costUsd: m.priced ? roundUsd(m.cost) : null };
    }
    return {
      responses,
      ...tokens,
      costUsd: knownCost(cost, { priced, unpriced: unpriced.length }),
      unpricedModels: unpriced,
      ...(unrecorded.length > 0 ? { inputUnrecordedModels: unrecorded } : {}),
      ...(outputUnrecorded.length > 0 ? { outputUnrecordedModels: outputUnrecorded } : {}),
      models,
      firstMs: this.firstMs,
      lastMs: this.lastMs,
    };
  }
}

export function totalsOf(responses: Iterable<PricedResponse<unknown>>): UsageGroup {
  const acc = new UsageAccumulator();
  for (const r of responses) acc.add(r);
  return acc.result();
}

/** Responses grouped by a key (responses whose key is undefined are left out), in first-seen key order. */
export function groupUsage<C>(
  responses: Iterable<PricedResponse<C>>,
  keyOf: (response: PricedResponse<C>) => string | undefined,
): Map<string, UsageGroup> {
  const groups = new Map<string, UsageAccumulator>();
  for (const r of responses) {
    const key = keyOf(r);
    if (key === undefined) continue;
    let acc = groups.get(key);
    if (acc === undefined) {
      acc = new UsageAccumulator();
      groups.set(key, acc);
    }
    acc.add(r);
  }
  return new Map([...groups].map(([k, acc]) => [k, acc.result()]));
}

export const usagePeriods = ['day', 'week', 'month'] as const;
export type UsagePeriod = (typeof usagePeriods)[number];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD` of a time in the local time zone (the process's `TZ`). */
export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * Whether `timeZone` is an IANA time zone name this runtime knows (`Europe/Paris`, `UTC`, …).
 * @example isTimeZone('America/New_York') // true
 */
export function isTimeZone(timeZone: string): boolean {
  try {
    zoneFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Calendar year, month (1–12) and day of a time: in `timeZone` when given, else in the local time zone. */
function calendarDate(ms: number, timeZone: string | undefined): { y: number; m: number; d: number } {
  if (timeZone === undefined) {
    const d = new Date(ms);
    return { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() };
  }
  const parts = zoneFormat(timeZone).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: part('year'), m: part('month'), d: part('day') };
}

/**
 * The period a time falls in, in the local time zone (the process's `TZ`) or in `timeZone` (an IANA name, e.g. the
 * browser's): `YYYY-MM-DD` for a day, the date of the week's Monday for a week (ISO weeks), `YYYY-MM` for a month.
 */
export function periodKey(ms: number, period: UsagePeriod, timeZone?: string): string {
  const { y, m, d } = calendarDate(ms, timeZone);
  switch (period) {
    case 'day':
      return `${y}-${pad(m)}-${pad(d)}`;
    case 'week': {
      // calendar arithmetic on the zone's date, in UTC (no daylight-saving shifts)
      const day = Date.UTC(y, m - 1, d);
      const monday = new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000);
      return `${monday.getUTCFullYear()}-${pad(monday.getUTCMonth() + 1)}-${pad(monday.getUTCDate())}`;
    }
    case 'month':
      return `${y}-${pad(m)}`;
    default:
      return period satisfies never;
  }
}

/** A UTC quarter-hour, in milliseconds: every time zone's offset in use is a multiple of it. */
const QUARTER_HOUR_MS = 900_000;

/** More quarter-hours than the longest period lasts (a 25-hour day, a week or a 31-day month and its hour). */
const PAST_LONGEST: Record<UsagePeriod, number> = { day: 26 * 4, week: (7 * 24 + 2) * 4, month: (31 * 24 + 2) * 4 };

/**
 * `periodKey` for many times at once: a period's key depends only on the zone's offset at that instant, and offsets
 * (and their daylight-saving changes) fall on whole UTC quarter-hours, so a quarter-hour's key is computed once. A
 * quarter-hour whose first and last millisecond fall in different periods (an offset off the quarter-hour grid, as
 * zones' local mean times before 1900) has each of its times computed on its own.
 * And the period met last is kept from that quarter-hour to its end (found by halving, a period's keys never going
 * back): times met in ascending order (a sorted list of buckets) cost a few formats per period, not two per
 * quarter-hour.
 */
export function periodKeyer(period: UsagePeriod, timeZone?: string): (ms: number) => string {
  const keys = new Map<number, string | null>();
  const startKey = (quarter: number) => periodKey(quarter * QUARTER_HOUR_MS, period, timeZone);
  const quarterKey = (quarter: number): string | null => {
    let key = keys.get(quarter);
    if (key === undefined) {
      const first = startKey(quarter);
      key = first === periodKey((quarter + 1) * QUARTER_HOUR_MS - 1, period, timeZone) ? first : null;
      keys.set(quarter, key);
    }
    return key;
  };
  /** The first instant after `quarter` (whose key is `key`) known to be in another period, or not known to be in it. */
  const endOf = (quarter: number, key: string): number => {
    let low = quarter;
    let high = quarter + PAST_LONGEST[period];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (startKey(middle) === key) low = middle;
      else high = middle;
    }
    // `low` starts in the period; it ends in it too unless the period ends off the grid, inside it.
    return quarterKey(low) === key ? high * QUARTER_HOUR_MS : low * QUARTER_HOUR_MS;
  };
  let run: { readonly from: number; readonly to: number; readonly key: string } | undefined;
  return (ms) => {
    if (run !== undefined && ms >= run.from && ms < run.to) return run.key;
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    const key = quarterKey(quarter);
    if (key === null) return periodKey(ms, period, timeZone);
    run = { from: quarter * QUARTER_HOUR_MS, to: endOf(quarter, key), key };
    return key;
  };
}

/** Cache reads over all input-side tokens (0 when there are none). */
export function cacheHitRatio(t: TokenCounts): number {
  const all = t.inputTokens + t.cacheCreationInputTokens + t.cacheReadInputTokens;
  return all === 0 ? 0 : t.cacheReadInputTokens / all;
}
