/** The names a push gives what it must not name: keyed hashes with the person's salt (stable across their devices). */
import { createHmac } from 'node:crypto';

function hmac(saltHex: string, ...parts: readonly string[]): string {
  return createHmac('sha256', Buffer.from(saltHex, 'hex')).update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/** A session's id on the team server: its agent and its key in the local index (project folder plus id). */
export const sessionUid = (saltHex: string, agent: string, key: string): string => hmac(saltHex, 'session', agent, key);

/** A project's name on the team server at the summary tier: its path (else its folder), never readable. */
export const projectHash = (saltHex: string, project: string): string => hmac(saltHex, 'project', project);

/** A session id that names something (`AgentInfo.namedIds`) as the summary tier sends it: a salted hash. */
export const opaqueSessionId = (saltHex: string, agent: string, id: string): string =>
  `h-${hmac(saltHex, 'session-id', agent, id)}`;

/**
 * A response's key on the team server: its key in the local index (`message.id`, scoped by its session where the
 * agent's ids are, or by its file where it has none: `responseKeyOf`), which may name a session or a project folder.
 */
export const responseKey = (saltHex: string, key: string): string => hmac(saltHex, 'response', key);
