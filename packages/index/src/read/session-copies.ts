/**
 * What a session's transcript holds that another session owns: the calls and the API responses a resume or a fork
 * copied into it (Claude Code writes the whole earlier conversation into the resumed session's file, its tool calls
 * and responses under their ids). The sessions list, `stats` and `usage` count each of them once, for the session
 * that owns it; the session's own timeline shows them. This says how many there are, and where they are counted.
 */
import { idOfKey } from '../file-row.js';
import { HOME_OF } from '../schema/schema-derived.js';
import { prepared } from '../schema/statements.js';
import type { Store } from './scope.js';
import { refOf, type SessionRow as StoredSession } from './session-summaries.js';
import { ownsBefore, SESSION_OF_REF, type SessionRow, usageResponses } from './usage-queries.js';

/** The copies a session holds of one other session's calls and responses. */
export interface CopiedFrom {
  /** The owning session's reference (as every command and the API accept it) and title. */
  readonly ref: string;
  readonly title: string | null;
  /**
   * The owner is another copy of this very session (the same id in another project folder, the newer complete
   * copy): not a resume, the same conversation kept twice.
   */
  readonly sameSession: boolean;
  /** Its calls copied here: in this transcript, counted there; of them, those that failed (expected ones too). */
  readonly calls: number;
  readonly errors: number;
  readonly expectedErrors: number;
  /**
   * Its prompts copied here (of this transcript's main thread, by uuid, each counted for the session that owns it);
   * absent where the source does not tell (a team server's copy, whose push carries none).
   */
  readonly prompts?: number;
  /** Its API responses copied here, and what they cost (null when a model of them has no price). */
  readonly responses: number;
  readonly costUsd: number | null;
  /**
   * Models some of whose copied responses recorded no input (Copilot CLI 1.0.64), absent when none: `costUsd` is then
   * a lower bound. The copy is core's `CostGaps` (`formatCost(from.costUsd, from)` marks it), as a session's summary.
   */
  readonly inputUnrecordedModels?: readonly string[];
  /** Models some of whose copied responses kept only the stream's first output count: `costUsd` is a lower bound. */
  readonly outputUnrecordedModels?: readonly string[];
  /** The tool_use ids of the copied calls, in the order of this transcript (a timeline marks them). */
  readonly callIds: readonly string[];
}

/**
 * The sessions whose calls and responses `key`'s transcript holds as copies, in the order their copies come (those
 * found by their calls first). A call's row holds its fact only in the session that owns it (call-facts.ts), so a
 * call row here without one, whose owner is another session, is a copy; the other sessions of its home holding one of
 * its responses (`responses_key`) are looked at too, for a copied part without a tool call. Each response this
 * session holds goes to the first of it and those sessions that hold it too by `ownsBefore` (the rule of
 * `usageResponses` and of the session's own row, session-usage.ts `settle`). A copy in another agent home is not one
 * (another history, whose calls and responses are its own).
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
  // The sessions of its home holding one of its responses (of them, those that own one are sources below).
  const sharing = prepared(
    store.db,
    `SELECT DISTINCT st.text FROM strings me JOIN responses r ON r.session_ref = me.id
       JOIN responses o ON o.key = r.key AND o.session_ref <> r.session_ref JOIN strings st ON st.id = o.session_ref
       JOIN sessions os ON os.id = st.text JOIN sessions ms ON ms.id = me.text
      WHERE me.text = ? AND ${HOME_OF('os.project_dir')} = ${HOME_OF('ms.project_dir')} ORDER BY st.text`,
    'pluck',
  ).all(key) as string[];
  if (rows.length === 0 && sharing.length === 0) return [];
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
  for (const owner of sharing) if (!owners.has(owner)) owners.set(owner, { ids: [], errors: 0, expectedErrors: 0 });
  const refOfText = prepared(store.db, 'SELECT id FROM strings WHERE text = ?', 'pluck');
  const sessionOf = prepared(store.db, SESSION_OF_REF, 'raw');
  const storedSession = prepared(store.db, 'SELECT * FROM sessions WHERE id = ?');
  const holds = prepared(store.db, 'SELECT 1 FROM responses WHERE session_ref = ? AND key = ?', 'pluck');
  // The prompts (their uuids, hex) of a session (the first parameter) that the main thread of another holds too.
  const promptsHeld = prepared(
    store.db,
    `SELECT DISTINCT hex(o.uuid_raw) FROM files ofile JOIN records o INDEXED BY records_prompts ON o.file_id = ofile.id
      WHERE ofile.session_id = ? AND o.shown = 1 AND o.is_sidechain = 0
        AND o.uuid_raw IN (SELECT r.uuid_raw FROM files f JOIN records r INDEXED BY records_prompts ON r.file_id = f.id
          WHERE f.session_id = ? AND f.role = 'main' AND r.shown = 1 AND r.is_sidechain = 0)`,
    'pluck',
  );
  const mine = refOfText.get(key) as number | undefined;
  const me = mine === undefined ? undefined : (sessionOf.get(mine) as SessionRow | undefined);
  const sources = [...owners].flatMap(([owner, calls]) => {
    const stored = storedSession.get(owner) as StoredSession | undefined;
    const ref = refOfText.get(owner) as number | undefined;
    const row = ref === undefined ? undefined : (sessionOf.get(ref) as SessionRow | undefined);
    if (stored === undefined) return [];
    return [
      {
        owner,
        calls,
        stored,
        ref,
        row,
        responses: 0,
        prompts: 0,
        costUsd: 0 as number | null,
        unrecorded: new Set<string>(),
        cut: new Set<string>(),
      },
    ];
  });
  // Each response of this session goes to the one session that owns it, by usage's rule: of the sessions holding it
  // (this one and those its copied calls come from), the first by `ownsBefore`. A resume of a resume holds its
  // grandparent's responses through its parent too: they are the grandparent's, counted once.
  if (me !== undefined) {
    // This session's responses, each priced as usage prices it (every one of them: one session is asked for).
    for (const r of usageResponses(store, { sessionId: key })) {
      let owner: (typeof sources)[number] | undefined;
      let first: SessionRow = me;
      for (const source of sources) {
        if (source.ref === undefined || source.row === undefined || !ownsBefore(source.row, first)) continue;
        if (holds.get(source.ref, r.key) === undefined) continue;
        owner = source;
        first = source.row;
      }
      if (owner === undefined) continue;
      owner.responses += 1;
      if (r.inputUnrecorded) owner.unrecorded.add(r.model);
      if (r.outputUnrecorded) owner.cut.add(r.model);
      owner.costUsd = owner.costUsd === null || r.costUsd === undefined ? null : owner.costUsd + r.costUsd;
    }
  }
  // Each prompt of this session's main thread goes to the first session by `ownsBefore` that holds it too (by uuid,
  // as the session's own row counts its copied prompts: session-usage.ts `copiedPrompts`).
  if (me !== undefined) {
    const heldBy = sources.map((source) => new Set(promptsHeld.all(source.owner, key) as string[]));
    for (const uuid of new Set(promptsHeld.all(key, key) as string[])) {
      let owner: (typeof sources)[number] | undefined;
      let first: SessionRow = me;
      sources.forEach((source, i) => {
        if (source.row === undefined || !ownsBefore(source.row, first) || !heldBy[i]?.has(uuid)) return;
        owner = source;
        first = source.row;
      });
      if (owner !== undefined) owner.prompts += 1;
    }
  }
  // A session found by a shared response that owns none here (a later resume of this one) copied nothing here.
  return sources
    .filter((source) => source.calls.ids.length > 0 || source.responses > 0)
    .map(({ owner, calls, stored, prompts, responses, costUsd, unrecorded, cut }) => ({
      ref: refOf(store, stored),
      title: stored.title,
      sameSession: idOfKey(owner) === idOfKey(key),
      calls: calls.ids.length,
      errors: calls.errors,
      expectedErrors: calls.expectedErrors,
      prompts,
      responses,
      costUsd,
      ...(unrecorded.size > 0 ? { inputUnrecordedModels: [...unrecorded].sort() } : {}),
      ...(cut.size > 0 ? { outputUnrecordedModels: [...cut].sort() } : {}),
      callIds: calls.ids,
    }));
}

/** When a fork's or resume's own records start, after what it copied (`sessions.own_from_ms`); undefined for others. */
export function sessionOwnFrom(store: Store, key: string): number | undefined {
  const ms = prepared(store.db, 'SELECT own_from_ms FROM sessions WHERE id = ?', 'pluck').get(key);
  return typeof ms === 'number' ? ms : undefined;
}
