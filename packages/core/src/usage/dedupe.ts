import { responseFloor } from './output-floor.js';
import { maxTokens, type TokenCounts, zeroTokens } from './tokens.js';

/** One assistant block record's usage, as written (several records of one API response each carry a copy). */
export interface UsageRecord<C = undefined> {
  readonly messageId: string | undefined;
  readonly requestId: string | undefined;
  readonly model: string | undefined;
  /** The record's time (ms since the epoch). */
  readonly timestampMs: number | undefined;
  /** `<synthetic>` messages (API errors, interruptions written by the client) carry no real usage. */
  readonly isSynthetic: boolean;
  readonly tokens: TokenCounts;
  /** Its usage has only the output side (core's `Usage.inputUnrecorded`): the input is unknown, not 0. */
  readonly inputUnrecorded?: boolean;
  /** The least output its content took, when its count is below it (core's `Usage.outputAtLeast`). */
  readonly outputAtLeast?: number | undefined;
  /** Responses folded into the record without their usage (core's `Usage.turnsUnrecorded`). */
  readonly turnsUnrecorded?: number | undefined;
  /** Where the record was (session, thread, project…): the response keeps its first record's. */
  readonly context: C;
}

/** One API response, counted once. */
export interface ResponseUsage<C = undefined> {
  /** `message.id`, plus `requestId` when one message id was served to several requests. */
  readonly key: string;
  readonly messageId: string | undefined;
  readonly requestId: string | undefined;
  readonly model: string;
  /** The earliest time of its records. */
  readonly timestampMs: number | undefined;
  /** The largest value of each field over its block records. */
  readonly tokens: TokenCounts;
  /** Block records seen (copies across files included). */
  readonly records: number;
  /** No record of it has the input side (`UsageRecord.inputUnrecorded`): its cost is a lower bound. */
  readonly inputUnrecorded?: true;
  /**
   * No record of it has its final output count: its largest is below what one of its records' content took
   * (`UsageRecord.outputAtLeast`), so its output and cost are lower bounds.
   */
  readonly outputUnrecorded?: true;
  readonly context: C;
}

interface Group<C> {
  key: string;
  messageId: string | undefined;
  requestId: string | undefined;
  model: string;
  timestampMs: number | undefined;
  tokens: TokenCounts;
  records: number;
  inputUnrecorded?: true;
  outputAtLeast: number | undefined;
  turnsUnrecorded: number;
  context: C;
}

/**
 * Each API response once (FORMAT.md §8 and §11):
 * - records are grouped by `message.id`; a message id that comes with two or more different `requestId`s is a
 *   gateway that reuses ids, so there each request id is its own response (records without one join the first);
 * - a response's tokens are the largest value of each field over its records (earlier block records keep the
 *   `message_start` counts; copies made by resume keep the same message id and are counted once);
 * - a response's input is unrecorded only when none of its records has it; its output, when its largest count is
 *   below what one of its records' content took (usage/output-floor.ts);
 * - the responses a record says were folded into it without their usage (`UsageRecord.turnsUnrecorded`, the largest
 *   over the response's records) follow it, each with no tokens and its input and output unrecorded;
 * - `<synthetic>` messages and records without a model or usage are skipped; a record without a message id is a
 *   response of its own.
 * Records are taken in the order given: a response keeps the context of its first record.
 */
export function dedupeResponses<C>(records: Iterable<UsageRecord<C>>): ResponseUsage<C>[] {
  const byMessage = new Map<string, Group<C>[]>();
  const out: Group<C>[] = [];
  let anonymous = 0;
  for (const record of records) {
    if (record.isSynthetic || record.model === undefined || record.model === '' || record.model === '<synthetic>') {
      continue;
    }
    const fresh = (key: string): Group<C> => ({
      key,
      messageId: record.messageId,
      requestId: record.requestId,
      model: record.model ?? '',
      timestampMs: record.timestampMs,
      tokens: record.tokens,
      records: 1,
      ...(record.inputUnrecorded === true ? { inputUnrecorded: true } : {}),
      outputAtLeast: record.outputAtLeast,
      turnsUnrecorded: record.turnsUnrecorded ?? 0,
      context: record.context,
    });
    if (record.messageId === undefined || record.messageId === '') {
      anonymous += 1;
      out.push(fresh(`#${anonymous}`));
      continue;
    }
    const groups = byMessage.get(record.messageId);
    if (groups === undefined) {
      const group = fresh(record.messageId);
      byMessage.set(record.messageId, [group]);
      out.push(group);
      continue;
    }
    let target = groups[0] as Group<C>;
    if (record.requestId !== undefined) {
      const same = groups.find((g) => g.requestId === record.requestId);
      if (same) target = same;
      else if (target.requestId === undefined) target.requestId = record.requestId;
      else {
        const group = fresh(`${record.messageId}:${record.requestId}`);
        groups.push(group);
        out.push(group);
        continue;
      }
    }
    target.tokens = maxTokens(target.tokens, record.tokens);
    target.outputAtLeast = responseFloor(target.outputAtLeast, record.outputAtLeast, target.tokens.outputTokens);
    target.records += 1;
    target.turnsUnrecorded = Math.max(target.turnsUnrecorded, record.turnsUnrecorded ?? 0);
    // A record with the input side gives the response its input: it is then known.
    if (target.inputUnrecorded && record.inputUnrecorded !== true) delete target.inputUnrecorded;
    if (
      record.timestampMs !== undefined &&
      (target.timestampMs === undefined || record.timestampMs < target.timestampMs)
    ) {
      target.timestampMs = record.timestampMs;
    }
  }
  return out.flatMap(({ outputAtLeast, turnsUnrecorded, ...response }) => [
    outputAtLeast !== undefined && outputAtLeast > response.tokens.outputTokens
      ? { ...response, outputUnrecorded: true as const }
      : response,
    ...unrecordedTurns(response, turnsUnrecorded),
  ]);
}

/** The responses a response's records hold without their usage: each one, its input and output unknown. */
function unrecordedTurns<C>(response: Omit<Group<C>, 'outputAtLeast' | 'turnsUnrecorded'>, turns: number) {
  return Array.from({ length: turns }, (_, i) => ({
    ...response,
    key: `${response.key}#${i + 1}`,
    tokens: zeroTokens,
    inputUnrecorded: true as const,
    outputUnrecorded: true as const,
  }));
}
