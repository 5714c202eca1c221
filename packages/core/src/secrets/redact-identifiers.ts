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
  // a session's key (`<project folder>/<id>`) and reference (`<id>@<project folder>`, when two folders hold the id)
  'key',
  'ref',
  'sessionRef',
]);

// A session's identifiers repeat on every record (its cwd, branch, file): each distinct one is scanned once.
const memo = new Map<string, { readonly text: string; readonly secrets: readonly string[] }>();
const MEMO_SIZE = 10_000;

function redactString(text: string, found: Set<string>): string {
  let hit = memo.get(text);
  if (hit === undefined) {
    const r = redactText(text);
    hit = { text: r.text, secrets: r.found.map((f) => text.slice(f.start, f.end)) };
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(text, hit);
  }
  for (const secret of hit.secrets) found.add(secret);
  return hit.text;
}

/**
 * The same secret as a project folder spells it: Claude Code names a project's folder after its path with every
 * character but letters and digits replaced by `-`, and a secret renamed so may be one no rule finds any more.
 */
const folderSpelling = (secret: string): string => secret.replace(/[^a-zA-Z0-9]/g, '-');

/**
 * A copy of `value` (a session, an index row, an API answer: any JSON-like value) with the secrets in its
 * identifiers replaced by `[REDACTED:<rule>]`: every string under a key such as `title`, `projectPath`, `cwd`,
 * `gitBranch`, `file` or `path`, at any depth. A secret found in one of them is also hidden wherever an identifier of
 * the value holds it as it is or as a project folder spells it (`-home-u-sk-ant-api03-…`), as `[REDACTED]`. Other
 * strings (prompts, replies, tool inputs and outputs) are left as they are. A string is taken as an identifier.
 * Objects without a change are returned as they are (no copy).
 * @example redactIdentifiers({ title: 'use sk-ant-api03-…', text: 'x' }) // { title: 'use [REDACTED:anthropic-api-key]', text: 'x' }
 */
export function redactIdentifiers<T>(value: T): T {
  const found = new Set<string>();
  const out = walk(value, typeof value === 'string', (text) => redactString(text, found));
  return withNeedles(out, typeof value === 'string', found) as T;
}

/**
 * The secrets in the identifiers of one part of a value (an event, a call of a session written a part at a time),
 * added to `found`: what `redactIdentifiersKnowing` needs to hide them in every part as `redactIdentifiers` hides
 * them in the whole.
 */
export function identifierSecretsOf(value: unknown, found: Set<string>): void {
  walk(value, typeof value === 'string', (text) => redactString(text, found));
}

/** `redactIdentifiers` of one part of a value whose identifiers' secrets (`identifierSecretsOf`) are `found`. */
export function redactIdentifiersKnowing<T>(value: T, found: ReadonlySet<string>): T {
  const out = walk(value, typeof value === 'string', (text) => redactString(text, new Set()));
  return withNeedles(out, typeof value === 'string', found) as T;
}

function withNeedles(out: unknown, named: boolean, found: ReadonlySet<string>): unknown {
  if (found.size === 0) return out;
  const needles = [...new Set([...found].flatMap((secret) => [secret, folderSpelling(secret)]))]
    .filter((needle) => needle.length >= 8)
    .sort((a, b) => b.length - a.length);
  return walk(out, named, (text) => {
    let shown = text;
    for (const needle of needles) if (shown.includes(needle)) shown = shown.replaceAll(needle, '[REDACTED]');
    return shown;
  });
}

function walk(value: unknown, named: boolean, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return named ? redact(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], named, redact);
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
    const isNamed = named || IDENTIFIER_KEYS.has(key);
    if (typeof v !== 'object' && !(typeof v === 'string' && isNamed)) continue;
    const w = walk(v, isNamed, redact);
    if (w !== v) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = w;
    }
  }
  return copy ?? value;
}
