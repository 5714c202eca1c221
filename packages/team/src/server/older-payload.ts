/**
 * A laptop of an older payload version, read as this version: its sessions' subagents (versions 1 and 2 sent each
 * subagent's whole prompt at the metadata tier) are told as version 3 tells them (`subagentWire`): at the metadata tier
 * by the summary of the call that started them, the prompt dropped before anything is stored; at the full tier with
 * it. Each session keeps the digest its laptop computed (checked before, by `checkDigests`), so the laptop's next
 * manifest finds it unchanged.
 */
import { OlderSubagentWire } from '../contract.js';
import { clip, idsOut } from '../push/build.js';
import { type SubagentSource, subagentWire } from '../subagent-wire.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request's sessions as they came, those that are objects. */
export function rawSessions(body: unknown): Json[] {
  const sessions = isObject(body) ? body.sessions : undefined;
  return Array.isArray(sessions) ? sessions.filter(isObject) : [];
}

/**
 * A version 1 or 2 `push/sessions` body with its subagents as version 3's, and, at the summary tier, the ids that name
 * something (Aider's) as version 3 hashes them with the person's `salt` (the rest is the schema's to judge).
 */
export function fromOlderPayload(body: unknown, salt: string): unknown {
  if (!isObject(body) || !Array.isArray(body.sessions)) return body;
  return { ...body, sessions: body.sessions.map((s) => upgradeSession(hashIds(s, salt))) };
}

/** A summary-tier session's id and its calls' ids as `idsOut` gives them (build.ts). */
function hashIds(session: unknown, salt: string): unknown {
  if (!isObject(session) || session.tier !== 'summary' || !str(session.agent) || !str(session.sessionId))
    return session;
  const ids = idsOut(salt, session.agent as string, 'summary');
  const id = session.sessionId as string;
  const calls = Array.isArray(session.calls)
    ? session.calls.map((c) => (isObject(c) && str(c.id) ? { ...c, id: ids.call(c.id as string, id) } : c))
    : session.calls;
  return { ...session, sessionId: ids.session(id), calls };
}

function upgradeSession(session: unknown): unknown {
  if (!isObject(session) || (session.tier !== 'metadata' && session.tier !== 'full')) return session;
  const header = session.header;
  if (!isObject(header) || !Array.isArray(header.subagents)) return session;
  const summaries = new Map<string, string>();
  for (const call of Array.isArray(session.calls) ? session.calls : []) {
    if (isObject(call) && typeof call.id === 'string' && typeof call.summary === 'string') {
      summaries.set(call.id, call.summary);
    }
  }
  const tier = session.tier;
  const subagents = header.subagents.map((sub) =>
    // a subagent not of the old shape is left for the schema to refuse
    isSource(sub) ? subagentWire(sub, tier, (id) => summaries.get(id), clip) : sub,
  );
  return { ...session, header: { ...header, subagents } };
}

const str = (v: unknown) => typeof v === 'string';

/** A subagent of the shape versions 1 and 2 sent (the contract's `OlderSubagentWire`). */
const isSource = (sub: unknown): sub is SubagentSource => OlderSubagentWire.safeParse(sub).success;
