/** Scanning transcript files for secrets, line by line: where each is (file, line, rule), never the secret itself. */
import { type OpenBytes, readLines } from '@agentdash/core';
import { findSecrets } from '@agentdash/core/secrets';

export interface SecretFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
}

/** JSON held in a string (a Codex tool output is `{"output": "…", "metadata": …}` as text), else undefined. */
function nestedJson(text: string): unknown {
  const first = text.charCodeAt(0);
  if (text.length < 16 || (first !== 123 && first !== 91)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every string of a JSON value (keys left out), depth-first, and the strings of JSON held in a string. */
function* strings(value: unknown): Generator<string, void, undefined> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      yield v;
      const nested = nestedJson(v);
      if (nested !== undefined) stack.push(nested);
    } else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.values(v).reverse());
  }
}

/** Secrets of one line: in its decoded strings (so `\n` in JSON is a line break), else in its raw text. */
function lineSecrets(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return findSecrets(text).map((f) => f.rule);
  }
  const rules: string[] = [];
  for (const s of strings(value)) for (const f of findSecrets(s)) rules.push(f.rule);
  return rules;
}

/**
 * Findings of one file (one per line and rule), by line number as the index counts lines, its bytes from `open`
 * (default: the file on disk; the index's `openBytes` falls back to the archive); an unreadable file yields none (the
 * index reports it). Read with core's line reader, which is much faster than node:readline on large homes.
 */
export async function scanFile(file: string, open?: OpenBytes): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  try {
    await readLines(
      file,
      (event) => {
        if (event.kind !== 'line') return;
        // One finding per line and rule: a line often holds a secret twice (a tool's output as the model saw it and
        // as the client keeps it), which is one place to look at.
        for (const rule of new Set(lineSecrets(event.text))) found.push({ file, line: event.line, rule });
      },
      open === undefined ? {} : { open },
    );
  } catch {
    // unreadable or vanished: nothing found
  }
  return found;
}
