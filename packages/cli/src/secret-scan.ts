/** Scanning transcript files for secrets, line by line: where each is (file, line, rule), never the secret itself. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { findSecrets } from '@agentdash/core/secrets';

export interface SecretFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
}

/** Every string of a JSON value (keys left out), depth-first. */
function* strings(value: unknown): Generator<string, void, undefined> {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') yield v;
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
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

/** Findings of one file; an unreadable file yields none (the index reports it). */
export async function scanFile(file: string): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const text of lines) {
      line += 1;
      for (const rule of lineSecrets(text)) found.push({ file, line, rule });
    }
  } catch {
    // unreadable or vanished: nothing found
  } finally {
    lines.close();
    input.destroy();
  }
  return found;
}
