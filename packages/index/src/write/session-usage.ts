/**
 * Per session: each API response once (core's `dedupeResponses`) in the `responses` table, usage per model, thread
 * (main or subagent) and request-size band (core's `promptBand`) in `sessions.usage_detail`, and the main thread's time
 * partition in `sessions.time`. Recomputed with the rest of the session's summary.
 */

import { dedupeResponses, type ResponseIds, responseKeyOf, type UsageRecord } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { idOfKey, keyInHome } from '../file-row.js';
import { ownsBefore, SESSION_OF_REF, type SessionRow } from '../read/usage-queries.js';
import { preparedOnUse } from '../schema/prepared.js';
import { INTERN_STRING } from '../schema/schema-derived.js';
import { FailureOwners } from './session-failures.js';
import type { UsageScan } from './session-scan.js';
import { SessionTimes } from './session-time.js';
import { usageDetail } from './usage-detail.js';

/** A session's usage columns, as stored. */
export interface SessionUsage {
  readonly detail: string;
  readonly time: string;
}

/**
 * Characters of a request id kept with its response (`responses.request_tail`): enough to tell two requests of one
 * response id apart (Claude Code's `req_…` ids end in random base-62), far fewer than the whole id, which a response of
 * every session would carry (the wild index weighed 0.3491 of its transcripts with it, 0.3475 with its tail).
 */
const REQUEST_TAIL = 10;
const tailOf = (requestId: string): string => requestId.slice(-REQUEST_TAIL);

export class SessionUsageUpdater {
  private readonly s;
  private readonly times: SessionTimes;
  private readonly failures: FailureOwners;
  /**
   * `rescan`: a session's records again, for the time of a fork or resume whose copies `settle` finds; `warmupsOf`:
   * the agent ids of its cache warm-ups (write/warmup-files.ts), whose responses are the session's own, not a subagent's.
   */
  constructor(
    db: Database.Database,
    private readonly rescan: (sid: string) => Pick<UsageScan, 'thread' | 'mainFile'>,
    private readonly warmupsOf: (sid: string) => ReadonlySet<string> = () => new Set(),
  ) {
    this.times = new SessionTimes(db);
    this.failures = new FailureOwners(db);
    this.s = preparedOnUse({
      // A response's session and model by their number in `strings`.
      deleteResponses: () =>
        db.prepare('DELETE FROM responses WHERE session_ref = (SELECT id FROM strings WHERE text = ?)'),
      internString: () => db.prepare(INTERN_STRING),
      insertResponse: () =>
        db.prepare(
          `INSERT OR REPLACE INTO responses (session_ref, key, message_raw, agent_id, model_ref, ts_ms, input_tokens,
           output_tokens, cache_creation_tokens, cache_1h_tokens, cache_read_tokens, reasoning_tokens, input_unrecorded,
           output_unrecorded, request_tail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
      // Another session holds this id, bare or keyed by its request (`<id>:…`), for another request (core's
      // `responseKeyOf`: a gateway reusing ids).
      contested: () =>
        db
          .prepare(
            `SELECT 1 FROM responses WHERE (key = @id OR (key > @id || ':' AND key < @id || ';'))
             AND request_tail IS NOT NULL AND request_tail <> @tail
             AND session_ref <> (SELECT id FROM strings WHERE text = @sid) LIMIT 1`,
          )
          .pluck(),
      // The responses held under the bare id, with the request each answers: their records have its whole id (a rare
      // path: an id two requests hold).
      holdersOf: () =>
        db.prepare(
          `SELECT r.session_ref AS ref, (SELECT rec.request_id FROM records rec JOIN files f ON f.id = rec.file_id
             WHERE f.session_id = s.text AND rec.message_id = r.key
               AND substr(rec.request_id, -${REQUEST_TAIL}) = r.request_tail LIMIT 1) AS requestId
           FROM responses r JOIN strings s ON s.id = r.session_ref WHERE r.key = ?`,
        ),
      // A message id stored as its key (\`message_raw\` 1) keeps its text: the key is no longer it.
      rekey: () =>
        db.prepare(
          `UPDATE responses
           SET key = ?, message_raw = CASE WHEN typeof(message_raw) = 'integer' THEN key ELSE message_raw END
           WHERE session_ref = ? AND key = ?`,
        ),
      stringId: () => db.prepare('SELECT id FROM strings WHERE text = ?').pluck(),
      // The sessions holding one of this session's responses too (a resume's copies, or what it copied), each once.
      sharers: () =>
        db
          .prepare(
            `SELECT DISTINCT o.session_ref FROM responses r
             JOIN responses o ON o.key = r.key AND o.session_ref <> r.session_ref
           WHERE r.session_ref = ?`,
          )
          .pluck(),
      // This session's responses one of the given sessions (a JSON array of their numbers) holds too, each once.
      sharedWith: () =>
        db
          .prepare(
            `SELECT DISTINCT r.key FROM responses r JOIN responses o ON o.key = r.key
           WHERE r.session_ref = ? AND o.session_ref IN (SELECT value FROM json_each(?))`,
          )
          .pluck(),
      sessionOf: () => db.prepare(SESSION_OF_REF).raw(),
      // A session's responses as `usageDetail` sums them.
      responsesOf: () =>
        db.prepare(
          `SELECT r.key, r.ts_ms, m.text AS model, r.agent_id, r.input_tokens, r.output_tokens, r.cache_creation_tokens,
           r.cache_1h_tokens, r.cache_read_tokens, r.reasoning_tokens, r.input_unrecorded, r.output_unrecorded
         FROM responses r JOIN strings m ON m.id = r.model_ref WHERE r.session_ref = ?`,
        ),
      setDetail: () =>
        db.prepare(
          `UPDATE sessions SET usage_detail = ?, copied_prompts = ?, copied_responses = ?, copied_models = ?
           WHERE id = ?`,
        ),
      // This session's prompts (of its main thread, as the summary counts them: session-scan.ts) whose uuid a prompt
      // of one of the given sessions (a JSON array of their ids) has: the conversation a resume or fork copied. Both
      // sides through `records_prompts` (a file's prompts alone).
      copiedPrompts: () =>
        db
          .prepare(
            `SELECT count(DISTINCT r.uuid_raw) FROM files f JOIN records r INDEXED BY records_prompts ON r.file_id = f.id
             WHERE f.session_id = ? AND f.role = 'main' AND r.shown = 1 AND r.is_sidechain = 0
               AND r.uuid_raw IN (SELECT o.uuid_raw FROM files ofile
                 JOIN records o INDEXED BY records_prompts ON o.file_id = ofile.id
                 WHERE ofile.session_id IN (SELECT value FROM json_each(?)) AND o.shown = 1 AND o.is_sidechain = 0)`,
          )
          .pluck(),
      ownFrom: () => db.prepare('SELECT own_from_ms FROM sessions WHERE id = ?').pluck(),
      setTime: () => db.prepare('UPDATE sessions SET time = ?, own_from_ms = ? WHERE id = ?'),
    });
  }

  /**
   * By their number in `strings`: the sessions whose responses `update` wrote since `settle`, and the sessions sharing
   * responses with them before or after.
   */
  private readonly changed = new Set<number>();
  private readonly sharing = new Set<number>();

  /**
   * Recompute a session's responses from its scan; returns its usage detail and time, as `sessions.usage_detail` and
   * `sessions.time` store them (sessions.ts writes them with the session's row). The detail counts every response of
   * the session; `settle` then takes out those another session owns.
   */
  update(
    sid: string,
    scan: UsageScan,
    ids: ResponseIds,
    /** The agent ids of its cache warm-ups, when the caller has them (else asked of `warmupsOf`). */
    warmups: ReadonlySet<string> = this.warmupsOf(sid),
  ): SessionUsage {
    this.noteSharing(sid);
    this.s.deleteResponses.run(sid);
    const rows = scan.usage;
    const records: UsageRecord<string | null>[] = rows.map((r) => ({
      messageId: r.message_id ?? undefined,
      requestId: r.request_id ?? undefined,
      model: r.model ?? undefined,
      timestampMs: r.ts_ms ?? undefined,
      isSynthetic: r.is_synthetic !== 0,
      // Usage stored without its input (session-scan.ts `UsageRow.i`).
      inputUnrecorded: r.i === null,
      outputAtLeast: r.oal ?? undefined,
      turnsUnrecorded: r.tu ?? undefined,
      tokens: {
        inputTokens: r.i ?? 0,
        outputTokens: r.o ?? 0,
        cacheCreationInputTokens: r.cc ?? 0,
        cacheCreation1hInputTokens: r.c1h ?? 0,
        cacheReadInputTokens: r.cr ?? 0,
        reasoningOutputTokens: r.ro ?? 0,
      },
      context: r.agent_id,
    }));
    const responses = dedupeResponses(records);
    const scope = { sessionId: idOfKey(sid), keyInHome: keyInHome(sid) };
    // Texts by number: the session's and each model's, stored and looked up once per session.
    const refs = new Map<string, number>();
    const ref = (text: string): number => {
      let id = refs.get(text);
      if (id === undefined) {
        this.s.internString.run(text);
        id = this.s.stringId.get(text) as number;
        refs.set(text, id);
      }
      return id;
    };
    for (const response of responses) {
      const t = response.tokens;
      // The session's number first: the contest below looks other sessions up by it.
      const session = ref(sid);
      // Scoped by the session unless its id is unique everywhere (core's rule): the same in a copy of the session in
      // another home (a backup), whose usage counts it once, and never the same in an unrelated session.
      const key = responseKeyOf(response, ids, scope, (id, requestId) => this.contest(sid, id, requestId));
      this.s.insertResponse.run(
        session,
        key,
        // 1 as an integer (a JS number binds as a real, 8 bytes, and reads back as text "1.0")
        response.messageId === key ? 1n : (response.messageId ?? null),
        response.context,
        ref(response.model),
        response.timestampMs ?? null,
        t.inputTokens,
        t.outputTokens,
        t.cacheCreationInputTokens,
        t.cacheCreation1hInputTokens,
        t.cacheReadInputTokens,
        t.reasoningOutputTokens,
        response.inputUnrecorded ? 1 : 0,
        response.outputUnrecorded ? 1 : 0,
        response.requestId === undefined ? null : tailOf(response.requestId),
      );
    }
    const written = this.noteSharing(sid);
    if (written !== undefined) this.changed.add(written);
    return { detail: usageDetail(responses, [], warmups), time: this.times.timeOf(sid, scan) };
  }

  /**
   * Whether another session holds response id `key` for a request other than `requestId`; if so, the responses of it
   * other sessions hold under the bare id are keyed by their requests too, and those sessions settled again.
   */
  private contest(sid: string, key: string, requestId: string): boolean {
    if (this.s.contested.get({ id: key, tail: tailOf(requestId), sid }) !== 1) return false;
    for (const held of this.s.holdersOf.all(key) as { ref: number; requestId: string | null }[]) {
      this.sharing.add(held.ref);
      // a copy without its request id keeps the bare id (whose copy it is cannot be told)
      if (held.requestId !== null) this.s.rekey.run(`${key}:${held.requestId}`, held.ref, key);
    }
    return true;
  }

  /**
   * Note the sessions sharing a response with this one (called before its responses change, and after); its number
   * in `strings`, when it has one.
   */
  private noteSharing(sid: string): number | undefined {
    const ref = this.s.stringId.get(sid) as number | undefined;
    if (ref === undefined) return undefined;
    for (const other of this.s.sharers.all(ref) as number[]) this.sharing.add(other);
    return ref;
  }

  /**
   * Give each response shared by several sessions of one home to its owner alone, in `sessions.usage_detail` (the
   * rule of `usageResponses`, `ownsBefore`): a resumed session's row then costs what `usage` counts for it, not the
   * responses it copied. Over the sessions updated since the last call and those sharing responses with them before
   * or after, once their rows are written (ownership compares their starts). A fork's or resume's time then counts
   * only its records after the last response it copied from another session (`sessions.own_from_ms`).
   */
  settle(): void {
    const rowOf = new Map<number, SessionRow | undefined>();
    const row = (ref: number) => {
      if (!rowOf.has(ref)) rowOf.set(ref, this.s.sessionOf.get(ref) as SessionRow | undefined);
      return rowOf.get(ref);
    };
    for (const ref of new Set([...this.changed, ...this.sharing])) {
      const me = row(ref);
      if (me === undefined) continue;
      // Copies in another home (a backup beside the live one) are another history there, as their calls are
      // (call-facts.ts): each home's list counts its own.
      // The sessions first asked (each once, however many responses they share), then the responses shared with
      // those that own before this one: a response copied into a long chain of resumes is not a row per copy here.
      const earlier = (this.s.sharers.all(ref) as number[]).filter((other) => {
        const them = row(other);
        return them !== undefined && them[6] === me[6] && ownsBefore(them, me);
      });
      // Written whole by `update` just now, and nothing of it is another session's: already right.
      if (earlier.length === 0 && this.changed.has(ref)) continue;
      const owned = new Set(
        earlier.length === 0 ? [] : (this.s.sharedWith.all(ref, JSON.stringify(earlier)) as string[]),
      );
      const held = this.s.responsesOf.all(ref) as StoredResponse[];
      const mine = held
        .filter((r) => !owned.has(r.key))
        .map((r) => ({
          model: r.model,
          context: r.agent_id,
          inputUnrecorded: r.input_unrecorded === 1,
          outputUnrecorded: r.output_unrecorded === 1,
          tokens: {
            inputTokens: r.input_tokens,
            outputTokens: r.output_tokens,
            cacheCreationInputTokens: r.cache_creation_tokens,
            cacheCreation1hInputTokens: r.cache_1h_tokens,
            cacheReadInputTokens: r.cache_read_tokens,
            reasoningOutputTokens: r.reasoning_tokens,
          },
        }));
      // Every response it holds is another's (a copy that added nothing): it billed nothing itself, a known $0, not
      // the unknown cost of a session whose responses recorded no usage (core's `knownCost`: a part of no response).
      const none = mine.length === 0 ? held.map((r) => ({ model: r.model, context: r.agent_id })) : [];
      // What a session of another id owns (a fork's or resume's copies); not a copy of this very session (the same
      // id in another folder): the same conversation kept twice, its time and messages whole in each.
      const others = earlier.filter((other) => row(other)?.[1] !== me[1]);
      const fromOthers =
        others.length === earlier.length
          ? owned
          : new Set(others.length === 0 ? [] : (this.s.sharedWith.all(ref, JSON.stringify(others)) as string[]));
      const copied = this.copiedOf(
        others.flatMap((other) => row(other)?.[0] ?? []),
        me[0],
        held,
        fromOthers,
      );
      this.s.setDetail.run(
        usageDetail(mine, none, this.warmupsOf(me[0])),
        copied.prompts,
        copied.responses,
        JSON.stringify(copied.models),
        me[0],
      );
      this.settleTime(ref, me, fromOthers, held);
      this.failures.settle(
        me[0],
        earlier.flatMap((other) => row(other)?.[0] ?? []),
      );
    }
    this.changed.clear();
    this.sharing.clear();
  }

  /**
   * What of a session's transcript sessions of other ids that own before it hold (`owners`, by key): its prompts of
   * theirs (by uuid), its responses of theirs (`owned`, by key), and the models only those responses name. The list's
   * messages, prompts and models are then its own, as its calls and cost are.
   */
  private copiedOf(
    owners: readonly string[],
    sid: string,
    held: readonly StoredResponse[],
    owned: ReadonlySet<string>,
  ): { prompts: number; responses: number; models: string[] } {
    if (owners.length === 0) return { prompts: 0, responses: 0, models: [] };
    const own = new Set(held.filter((r) => !owned.has(r.key)).map((r) => r.model));
    const models = [...new Set(held.filter((r) => owned.has(r.key) && !own.has(r.model)).map((r) => r.model))];
    return {
      prompts: this.s.copiedPrompts.get(sid, JSON.stringify(owners)) as number,
      responses: held.filter((r) => owned.has(r.key)).length,
      models: models.sort(),
    };
  }

  /**
   * A fork's or resume's time from its own records: after the last response it holds that a session of another id
   * owns (`copied`; its copies keep their first times). Read again only when that point moved, or the row was just
   * rewritten whole by `update`.
   */
  private settleTime(ref: number, me: SessionRow, copied: ReadonlySet<string>, held: readonly StoredResponse[]): void {
    let ownFrom: number | null = null;
    for (const r of held) {
      if (r.ts_ms !== null && copied.has(r.key) && (ownFrom === null || r.ts_ms > ownFrom)) ownFrom = r.ts_ms;
    }
    const stored = (this.s.ownFrom.get(me[0]) as number | null | undefined) ?? null;
    if (ownFrom === stored && (ownFrom === null || !this.changed.has(ref))) return;
    this.s.setTime.run(this.times.timeOf(me[0], this.rescan(me[0]), ownFrom ?? undefined), ownFrom, me[0]);
  }
}

/** A stored response as `settle` reads it back. */
interface StoredResponse {
  readonly key: string;
  readonly ts_ms: number | null;
  readonly model: string;
  readonly agent_id: string | null;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_tokens: number;
  readonly cache_1h_tokens: number;
  readonly cache_read_tokens: number;
  readonly reasoning_tokens: number;
  readonly input_unrecorded: number;
  readonly output_unrecorded: number;
}
