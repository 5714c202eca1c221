/**
 * Find and redact secrets in text and in JSON values. Pure and browser-safe; never throws on odd input.
 * @module
 */
import { jsonDepth, MAX_JSON_DEPTH } from '../internal/json-depth.js';
import { isPlaceholderValue, type SecretRule, secretRules } from './rules.js';

export interface SecretMatch {
  readonly rule: string;
  /** The secret's span in the text (for rules with a group: the group's span, not the variable name). */
  readonly start: number;
  readonly end: number;
}

interface CompiledRule {
  readonly rule: SecretRule;
  readonly pattern: RegExp;
}

// `d`: match indices, so a rule can redact only its secret group.
const compiled: readonly CompiledRule[] = secretRules.map((rule) => ({
  rule,
  pattern: new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('d', '')}d`),
}));

/** The shortest text any rule can match: shorter strings are skipped without running the rules. */
const MIN_LENGTH = 16;

/**
 * A cheap test every rule's match passes (its prefix, its name word, or the `user:password@` of a URL): most texts of
 * a transcript fail it, and are not run through the rules one by one. Keep it in step with rules.ts. Three tests, not
 * one: the prefixes of the case-sensitive rules as they are written, the name words of the others in any case, URLs
 * only where there is a `://` (one case-insensitive pattern of all three is much slower, and this test runs on every
 * text a cold index reads).
 */
const MAY_HOLD_PREFIX =
  /PRIVATE KEY|A[KSB]IA|ACCA|AIza|ya29\.|AccountKey=|Q~|sk-|[sr]k_|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|oas)-|xox|xapp-|hooks\.slack\.com|npm_|hf_|SG\.|gsk_|whsec_|GOCSPX-|pypi-|dop_v1_|shp(?:at|ss|ca|pa)_|:AA|eyJ/;
const MAY_HOLD_WORD =
  /secret|token|pass(?:w|phrase)|pass["']?[ \t]{0,3}[:=]|_pass|api[-_]?key|private_?key|access_?key|credential|auth_?key|_auth|authorization|pwd["']?[ \t]{0,3}[:=]|_pwd|sig=|x-amz-|mysql|mariadb|sshpass|docker[ \t]+login|curl[^\n]{0,300}?[ \t](?:-u|--user)/i;
const MAY_HOLD_URL_PASSWORD = /:\/\/[^\s:/?#@"'<>]{0,100}:[^\s/?#"'<>]{3,200}@/;

/** Whether `text` may hold a secret, by the rules' cheap test: a text that fails it holds none, escaped or not. */
export function mayHold(text: string): boolean {
  return (
    MAY_HOLD_PREFIX.test(text) || MAY_HOLD_WORD.test(text) || (text.includes('://') && MAY_HOLD_URL_PASSWORD.test(text))
  );
}

/** Secrets in `text`, in order of position; overlapping matches go to the rule listed first (the most specific). */
export function findSecrets(text: string): SecretMatch[] {
  if (text.length < MIN_LENGTH || !mayHold(text)) return [];
  // A marker left by an earlier redaction is never a secret, nor part of one (`://[REDACTED:github-token]@`):
  // redacting twice changes nothing.
  const found: SecretMatch[] = text.includes('[REDACTED')
    ? [...text.matchAll(MARKER)].map((m) => ({ rule: '', start: m.index, end: m.index + m[0].length }))
    : [];
  const markers = found.length;
  for (const { rule, pattern } of compiled) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      const span = m.indices?.[rule.group];
      if (!span) continue;
      const start = span[0];
      let end = span[1];
      // what ends a shell word is not part of a value found by its name (`PASSWORD=password;`)
      if (rule.byName === true) while (end > start && TRAILING.includes(text[end - 1] ?? '')) end -= 1;
      if (end <= start) continue;
      if (rule.byName === true && isPlaceholderValue(text.slice(start, end))) continue;
      if (rule.takes !== undefined && !rule.takes(text.slice(start, end))) continue;
      if (found.some((f) => start < f.end && f.start < end)) continue;
      found.push({ rule: rule.id, start, end });
    }
  }
  return (markers > 0 ? found.slice(markers) : found).sort((a, b) => a.start - b.start);
}

const MARKER = /\[REDACTED(?::[a-z0-9-]+)?\]/g;

/** What may follow a value in a shell line (`;`, `&`, `|`) or a list (`,`): cut from a value found by its name. */
const TRAILING = ';&|,';

/** The marker that replaces a secret. */
export function redactionMarker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** `text` with every secret replaced by `[REDACTED:<rule>]`, and what was replaced. */
export function redactText(text: string): { readonly text: string; readonly found: readonly SecretMatch[] } {
  const found = findSecrets(text);
  if (found.length === 0) return { text, found };
  let out = '';
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.start) + redactionMarker(f.rule);
    at = f.end;
  }
  return { text: out + text.slice(at), found };
}

/** What a walk over a value tells of each secret it redacts. */
interface SecretSink {
  add(rule: string, place: string, secret?: string): void;
}

/** Where secrets were redacted: counts per rule and per place (a place is what the caller names, e.g. a call). */
export class RedactionReport {
  readonly byRule = new Map<string, number>();
  readonly byPlace = new Map<string, number>();
  /** Redactions: a secret a session holds in several forms (a result's text and its structured copy) counts each. */
  total = 0;
  /** The secrets redacted, each once (its rule and text), when `add` was told them. */
  private readonly secrets = new Set<string>();

  add(rule: string, place: string, secret?: string): void {
    this.total += 1;
    this.byRule.set(rule, (this.byRule.get(rule) ?? 0) + 1);
    this.byPlace.set(place, (this.byPlace.get(place) ?? 0) + 1);
    if (secret !== undefined) this.secrets.add(`${rule}\u0000${secret}`);
  }

  /** How many different secrets were redacted (`total` when `add` was not told them). */
  get distinct(): number {
    return this.secrets.size > 0 ? this.secrets.size : this.total;
  }

  /** Adds what `from` counted. */
  merge(from: RedactionReport): void {
    for (const [rule, n] of from.byRule) this.byRule.set(rule, (this.byRule.get(rule) ?? 0) + n);
    for (const [place, n] of from.byPlace) this.byPlace.set(place, (this.byPlace.get(place) ?? 0) + n);
    for (const secret of from.secrets) this.secrets.add(secret);
    this.total += from.total;
  }

  /**
   * `3 secrets redacted (github-token 2, aws-access-key-id 1) in call toolu_01 input, prompt 3`; one secret met in
   * several places says so: `1 secret, redacted 4 times (json-secret-field 4), in agent-a56.jsonl:55` (as the
   * `secrets` command counts it: once).
   */
  summary(maxPlaces = 10): string {
    if (this.total === 0) return 'no secrets found';
    const rules = [...this.byRule].map(([r, n]) => `${r} ${n}`).join(', ');
    const places = [...this.byPlace.keys()];
    const shown = places.slice(0, maxPlaces).join('; ');
    const more = places.length > maxPlaces ? `; and ${places.length - maxPlaces} more places` : '';
    const n = this.distinct;
    const secrets = `${n} secret${n === 1 ? '' : 's'}`;
    if (n < this.total) return `${secrets}, redacted ${this.total} times (${rules}), in ${shown}${more}`;
    return `${secrets} redacted (${rules}) in ${shown}${more}`;
  }

  toJSON(): { total: number; byRule: Record<string, number>; places: Record<string, number> } {
    return {
      total: this.total,
      byRule: Object.fromEntries(this.byRule),
      places: Object.fromEntries(this.byPlace),
    };
  }
}

/**
 * A copy of a JSON-like value with every string's secrets redacted (object keys are kept): a string is read with the
 * key it stands under, and JSON it holds is read as JSON (`redactString`). Each redaction is added to `report` under
 * `place`. Values without secrets are returned as they are (no copy). Iterative depth is bounded by the value, which
 * core has already limited to 100 levels (JSON held in a string: once, to the same depth).
 */
export function redactValue<T>(value: T, place: string, report: RedactionReport): T {
  return walk(value, place, report) as T;
}

/**
 * The rules of the secrets in a JSON-like value, one per secret in the order `redactValue` meets them: what it would
 * redact, so that what is counted (`agentdash secrets`, the index) and what exports redact are one reading.
 */
export function secretRulesOf(value: unknown): string[] {
  const rules: string[] = [];
  walk(value, '', { add: (rule) => rules.push(rule) });
  return rules;
}

/**
 * JSON held in a string (a Codex tool output is `{"output": "…", "metadata": …}` as text), parsed, when it may hold a
 * secret: inside it a secret is escaped (`DB_PASSWORD=\\"…\\"`), where no rule sees it. Not read when it nests
 * deeper than a parsed line may (`MAX_JSON_DEPTH`), nor inside JSON that was itself held in a string.
 */
function nestedJson(text: string, nested: boolean): unknown {
  const first = text.charCodeAt(0);
  if (nested || (first !== 123 && first !== 91) || !mayHold(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return jsonDepth(value) <= MAX_JSON_DEPTH ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Secrets found by a key's name in its string value, as the rules find them in the same entry written as text
 * (`"password": "…"`, `"Authorization": "Bearer …"`): a parsed line holds the name apart from the value, where a
 * rule that finds a value by its name cannot see it. Those overlapping `own` (the value's own secrets) are left out.
 */
function namedSecrets(key: string, value: string, own: readonly SecretMatch[]): SecretMatch[] {
  const at = key.length + 5;
  return findSecrets(`"${key}": "${value}"`)
    .filter((f) => f.start >= at && f.end <= at + value.length)
    .map((f) => ({ rule: f.rule, start: f.start - at, end: f.end - at }))
    .filter((f) => !own.some((o) => f.start < o.end && o.start < f.end));
}

/**
 * A string without its secrets: those of JSON it holds (re-serialized when one was redacted), else its own text's,
 * with those its object key names (`key`: the entry's key when it may name a secret).
 */
function redactString(value: string, place: string, report: SecretSink, key: string | undefined, nested: boolean) {
  if (value.length < (key === undefined ? MIN_LENGTH : 8)) return value;
  const json = nestedJson(value, nested);
  if (json !== undefined) {
    const redacted = walk(json, place, report, true);
    if (redacted !== json) return JSON.stringify(redacted);
  }
  const own = findSecrets(value);
  const named = key === undefined ? [] : namedSecrets(key, value, own);
  const found = named.length === 0 ? own : [...own, ...named].sort((a, b) => a.start - b.start);
  if (found.length === 0) return value;
  let out = '';
  let from = 0;
  for (const f of found) {
    report.add(f.rule, place, value.slice(f.start, f.end));
    out += value.slice(from, f.start) + redactionMarker(f.rule);
    from = f.end;
  }
  return out + value.slice(from);
}

function walk(value: unknown, place: string, report: SecretSink, nested = false): unknown {
  if (typeof value === 'string') return redactString(value, place, report, undefined, nested);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], place, report, nested);
      if (v !== value[i]) {
        copy ??= value.slice();
        copy[i] = v;
      }
    }
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const w =
        typeof v === 'string'
          ? redactString(v, place, report, MAY_HOLD_WORD.test(k) ? k : undefined, nested)
          : walk(v, place, report, nested);
      if (w !== v) {
        copy ??= { ...(value as Record<string, unknown>) };
        copy[k] = w;
      }
    }
    return copy ?? value;
  }
  return value;
}
