/**
 * Secrets in what names a session (its title, project path and folder, working directory, git branch, file paths)
 * are redacted in every output, always (docs/secrets.md): these are identifiers, shown in lists, headers and
 * statistics, and a secret in one is never wanted there.
 * @module
 */
import { redactText } from './scan.js';

/** Keys whose values name a session or a place: every string under them is redacted. */
const IDENTIFIER_KEYS: ReadonlySet<string> = new Set([
  'title',
  'sessionTitle',
  'summary',
  'projectPath',
  'projectDir',
  'project',
  'projects',
  'cwd',
  'gitBranch',
  'file',
  'path',
]);

// A session's identifiers repeat on every record (its cwd, branch, file): each distinct one is scanned once.
const memo = new Map<string, string>();
const MEMO_SIZE = 10_000;

function redactString(text: string): string {
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const out = redactText(text).text;
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(text, out);
  return out;
}

/**
 * A copy of `value` (a session, an index row, an API answer: any JSON-like value) with the secrets in its
 * identifiers replaced by `[REDACTED:<rule>]`: every string under a key such as `title`, `projectPath`, `cwd`,
 * `gitBranch`, `file` or `path`, at any depth. Other strings (prompts, replies, tool inputs and outputs) are left as
 * they are. A string is taken as an identifier. Objects without a change are returned as they are (no copy).
 * @example redactIdentifiers({ title: 'use sk-ant-api03-…', text: 'x' }) // { title: 'use [REDACTED:anthropic-api-key]', text: 'x' }
 */
export function redactIdentifiers<T>(value: T): T {
  return walk(value, typeof value === 'string') as T;
}

function walk(value: unknown, named: boolean): unknown {
  if (typeof value === 'string') return named ? redactString(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], named);
      if (v !== value[i]) {
        copy ??= value.slice();
        copy[i] = v;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'object' && !(typeof v === 'string' && (named || IDENTIFIER_KEYS.has(key)))) continue;
    const w = walk(v, named || IDENTIFIER_KEYS.has(key));
    if (w !== v) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = w;
    }
  }
  return copy ?? value;
}
