/**
 * What the API shows of secrets (docs/secrets.md): those in identifiers (titles, project paths, cwd, branches, file
 * paths) never; with `serve --redact` (screen sharing) none at all. The rules and the redaction are core's.
 * @module
 */
import type { Session } from '@agentdash/core/model';
import { redactDerived, redactIdentifiers, redactSession } from '@agentdash/core/secrets';

/** A loaded session as the API serves it: its identifiers redacted, or with `redact` every string of it. */
export function shownSession(session: Session, redact: boolean): Session {
  return redact ? redactSession(session).session : redactIdentifiers(session);
}

/** An answer (a list, statistics, a header) as the API sends it: identifiers redacted, or with `redact` every string. */
export function shownAnswer<T>(value: T, redact: boolean): T {
  const named = redactIdentifiers(value);
  if (!redact) return named;
  // (identifiers first: a secret of a project path is hidden in the folder names of the answer's file paths too)
  const out = redactDerived(named);
  // A search snippet is a window of a text: a secret cut by its edge, or split by a highlight marker, is no longer
  // one the rules know. On a shared screen, any long run of letters and digits in one is hidden.
  const sessions = (out as { sessions?: unknown }).sessions;
  if (!Array.isArray(sessions) || !sessions.some((s) => typeof (s as { snippet?: unknown })?.snippet === 'string')) {
    return out;
  }
  return {
    ...out,
    sessions: sessions.map((s: { snippet?: unknown }) =>
      typeof s?.snippet === 'string' ? { ...s, snippet: shownSnippet(s.snippet) } : s,
    ),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the highlight markers of search snippets
const HIGHLIGHT = /[\u0001\u0002]/g;
// A run of 16 or more token characters holding a letter and a digit: keys, tokens, hashes, ids.
const TOKEN_RUN = /[A-Za-z0-9+/=_~.-]{16,}/g;

/** A search snippet for a shared screen: secrets redacted, long token-like runs hidden, highlights kept when whole. */
export function shownSnippet(snippet: string): string {
  const plain = snippet.replace(HIGHLIGHT, '');
  const redacted = redactDerived(plain);
  const hidden = redacted.replace(TOKEN_RUN, (run) => (/[0-9]/.test(run) && /[A-Za-z]/.test(run) ? '[REDACTED]' : run));
  if (hidden === plain) return snippet;
  return hidden;
}
