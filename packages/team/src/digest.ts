/** A session's digest: SHA-256 of its canonical JSON (keys sorted, `digest` left out), the same on both sides. */
import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted, so equal values give equal text whatever the order they were built in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The digest of a pushed session: every field but `digest` itself. */
export function digestOf(session: { readonly digest?: string } & Record<string, unknown>): string {
  const { digest: _ignored, ...rest } = session;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}
