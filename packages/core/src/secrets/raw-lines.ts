/**
 * Secrets in a transcript file read a line at a time, as its bytes are (the team's full tier sends the files
 * themselves; `agentdash secrets` names the line of each finding), where a line alone is not always a whole value:
 * - a JSON Lines record is one line: parsed, and each of its strings read as exports read it (`secretRulesOf`);
 * - a line of a JSON document written over many lines (Gemini's session files) is not JSON alone, but the JSON
 *   strings on it are: each is decoded, so that a secret its escaping hides (`password=\"…\"`) is found, and written
 *   back encoded;
 * - a Markdown history (Aider's) holds a private key as lines of its own: the lines after a key's BEGIN line are the
 *   key's until its END line (the body's base64, its headers, a blank line), redacted whole.
 * Anything else on a line is read as text.
 * @module
 */
import { redactDerived } from './redact-session.js';
import { findSecrets, mayHold, redactionMarker, secretRulesOf } from './scan.js';

const KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const KEY_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/**
 * A line of a key's body: a prefix (Markdown's `> `, indentation, a diff's `-` or `+`, a list's `- `, `cat -n`'s line
 * number and tab), then base64, a header, or nothing.
 */
const KEY_BODY = /^([ \t>|*+-]*(?:\d+\t|\d+[:|] ?)?[ \t>|*+-]*)([A-Za-z0-9+/]+={0,2}|[A-Za-z-]+: .*|)[ \t]*\r?$/;

/** Whether a key begins on `line` and does not end there: the lines after it are the key's. */
function opensKey(line: string): boolean {
  let last = -1;
  for (const m of line.matchAll(KEY_BEGIN)) last = m.index + m[0].length;
  return last >= 0 && !KEY_END.test(line.slice(last));
}

/**
 * The JSON strings of `line` that hold escapes, decoded, with where each is (a string that is not valid JSON is left
 * out). One pass over the line: a quote opens a string, a backslash takes the character after it, the next quote
 * closes it; a string not closed on the line ends the pass (a pattern for it backtracked for seconds over a long
 * line of escapes).
 */
function escapedStrings(line: string): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  for (let at = line.indexOf('"'); at !== -1; ) {
    let i = at + 1;
    let escaped = false;
    while (i < line.length && line[i] !== '"') {
      if (line[i] === '\\') {
        escaped = true;
        i += 1;
      }
      i += 1;
    }
    if (i >= line.length) break;
    if (escaped) {
      try {
        out.push({ start: at, end: i + 1, text: JSON.parse(line.slice(at, i + 1)) as string });
      } catch {
        // not a JSON string after all (a quote inside some other text): read as text
      }
    }
    at = line.indexOf('"', i + 1);
  }
  return out;
}

/**
 * A file's lines in order, each with its secrets found or redacted by the rules above: one instance per file, as a
 * key's lines follow its BEGIN line. Lines are given without their line break.
 */
export class RawLines {
  private inKey = false;

  /** `line` with its secrets redacted; a line without any is given back as it is (the same string). */
  redact(line: string): string {
    const key = this.keyLine(line);
    if (key !== undefined) return key.rest === undefined ? key.kept : key.kept + this.redact(key.rest);
    const out = redactLine(line);
    this.inKey = opensKey(line);
    return out;
  }

  /** The rules of the secrets on `line`, once each; a key's body finds none (its BEGIN line named it). */
  rules(line: string): string[] {
    const key = this.keyLine(line);
    if (key !== undefined) return key.rest === undefined ? [] : this.rules(key.rest);
    const found = lineRules(line);
    this.inKey = opensKey(line);
    return found;
  }

  /**
   * A line inside a key: what is kept of it (its quoting prefix and the marker, or the marker for the key up to its
   * END), and `rest`, what follows the END on that line. Undefined when the line is not a key's (the key ended
   * without its END line: the line is read as any other).
   */
  private keyLine(line: string): { kept: string; rest?: string } | undefined {
    if (!this.inKey) return undefined;
    const end = KEY_END.exec(line);
    if (end !== null) {
      this.inKey = false;
      const prefix = KEY_BODY.exec(line.slice(0, end.index))?.[1] ?? '';
      return { kept: prefix + redactionMarker('private-key'), rest: line.slice(end.index + end[0].length) };
    }
    const body = KEY_BODY.exec(line);
    if (body === null) {
      this.inKey = false;
      return undefined;
    }
    return { kept: body[2] === '' ? line : (body[1] ?? '') + redactionMarker('private-key') };
  }
}

/** One line without its secrets (see the module): the same string when it holds none. */
export function redactLine(line: string): string {
  if (!mayHold(line)) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line) as unknown;
  } catch {
    // each string decoded, redacted and encoded again, from the last (the places before it stay where they were)
    let out = line;
    for (const { start, end, text } of escapedStrings(line).reverse()) {
      const redacted = redactDerived(text);
      if (redacted !== text) out = out.slice(0, start) + JSON.stringify(redacted) + out.slice(end);
    }
    return redactDerived(out);
  }
  const redacted = redactDerived(parsed);
  return redacted === parsed ? line : JSON.stringify(redacted);
}

/** The rules of the secrets on one line (see the module), once each. */
function lineRules(line: string): string[] {
  if (!mayHold(line)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(line) as unknown;
  } catch {
    const found = new Set(findSecrets(line).map((f) => f.rule));
    for (const { text } of escapedStrings(line)) for (const rule of secretRulesOf(text)) found.add(rule);
    return [...found];
  }
  return [...new Set(secretRulesOf(parsed))];
}
