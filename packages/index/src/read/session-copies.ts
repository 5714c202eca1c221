/**
 * What a session's transcript holds that another session owns: the calls and the API responses a resume or a fork
 * copied into it (Claude Code writes the whole earlier conversation into the resumed session's file, its tool calls
 * and responses under their ids). The sessions list, `stats` and `usage` count each of them once, for the session
 * that owns it; the session's own timeline shows them. This says how many there are, and where they are counted.
 */
import { responsePricer } from '@agentdash/core';
import { prepared } from '../schema/statements.js';
import type { Store } from './scope.js';
import { refOf, type SessionRow as StoredSession } from './session-summaries.js';
import { ownsBefore, SESSION_OF_REF, type SessionRow } from './usage-queries.js';

/** The copies a session holds of one other session's calls and responses. */
export interface CopiedFrom {
  /** The owning session's reference (as every command and the API accept it) and title. */
  readonly ref: string;
  readonly title: string | null;
  /** Its calls copied here: in this transcript, counted there; of them, those that failed (expected ones too). */
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /** Its API responses copied here, and what they cost (null when a model of them has no price). */
  readonly responses: number;
  readonly costUsd: number | null;
  /** The tool_use ids of the copied calls, in the order of this transcript (a timeline marks them). */
  readonly callIds: readonly string[];
}

/**
 * The sessions whose calls and responses `key`'s transcript holds as copies, in the order their copies come. The
 * sessions are found by the calls: a call's row holds its fact only in the session that owns it (call-facts.ts), so
 * a call row here without one, whose owner is another session, is a copy. The responses of those sessions that this
 * session holds too belong to whichever of the two `ownsBefore` says (the rule of `usageResponses`).
 */
export function sessionCopies(store: Store, key: string): readonly CopiedFrom[] {
  const rows = prepared(
    store.db,
    `SELECT c.tool_use_id AS id, o.session_id AS owner, oc.is_error AS failed, oc.severity = 'expected' AS expected
       FROM files f JOIN calls c ON c.file_id = f.id
       JOIN calls oc ON oc.tool_use_id = c.tool_use_id AND oc.has_result IS NOT NULL
       JOIN files o ON o.id = oc.file_id AND o.home = f.home AND o.session_id <> f.session_id
      WHERE f.session_id = ? AND c.has_result IS NULL
      ORDER BY f.role, f.path, c.line`,
  ).all(key) as { id: string; owner: string; failed: number; expected: number | null }[];
  if (rows.length === 0) return [];
  const owners = new Map<string, { ids: string[]; errors: number; expectedErrors: number }>();
  for (const { id, owner, failed, expected } of rows) {
    const from = owners.get(owner) ?? { ids: [], errors: 0, expectedErrors: 0 };
    from.ids.push(id);
    if (failed === 1) {
      from.errors += 1;
      if (expected === 1) from.expectedErrors += 1;
    }
    owners.set(owner, from);
  }
  const refOfText = prepared(store.db, 'SELECT id FROM strings WHERE text = ?', 'pluck');
  const sessionOf = prepared(store.db, SESSION_OF_REF, 'raw');
  const storedSession = prepared(store.db, 'SELECT * FROM sessions WHERE id = ?');
  const responsesOf = prepared(
    store.db,
    `SELECT r.key, m.text AS model, r.input_tokens, r.output_tokens, r.cache_creation_tokens, r.cache_1h_tokens,
            r.cache_read_tokens, r.reasoning_tokens
       FROM responses r JOIN strings m ON m.id = r.model_ref
      WHERE r.session_ref = ? AND EXISTS (SELECT 1 FROM responses o WHERE o.session_ref = ? AND o.key = r.key)`,
  );
  const costOf = responsePricer(store.prices);
  const mine = refOfText.get(key) as number | undefined;
  const me = mine === undefined ? undefined : (sessionOf.get(mine) as SessionRow | undefined);
  const out: CopiedFrom[] = [];
  for (const [owner, { ids: callIds, errors, expectedErrors }] of owners) {
    const stored = storedSession.get(owner) as StoredSession | undefined;
    if (stored === undefined) continue;
    const theirs = refOfText.get(owner) as number | undefined;
    const them = theirs === undefined ? undefined : (sessionOf.get(theirs) as SessionRow | undefined);
    let responses = 0;
    let costUsd: number | null = 0;
    if (mine !== undefined && me !== undefined && them !== undefined && ownsBefore(them, me)) {
      for (const r of responsesOf.all(mine, theirs) as ResponseRow[]) {
        responses += 1;
        const cost = costOf(r.model, tokensOf(r));
        costUsd = costUsd === null || cost === undefined ? null : costUsd + cost;
      }
    }
    out.push({
      ref: refOf(store, stored),
      title: stored.title,
      calls: callIds.length,
      errors,
      expectedErrors,
      responses,
      costUsd,
      callIds,
    });
  }
  return out;
}

interface ResponseRow {
  readonly model: string;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_tokens: number;
  readonly cache_1h_tokens: number;
  readonly cache_read_tokens: number;
  readonly reasoning_tokens: number;
}

const tokensOf = (r: ResponseRow) => ({
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  cacheCreationInputTokens: r.cache_creation_tokens,
  cacheCreation1hInputTokens: r.cache_1h_tokens,
  cacheReadInputTokens: r.cache_read_tokens,
  reasoningOutputTokens: r.reasoning_tokens,
});
