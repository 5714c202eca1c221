/** Scanning transcript files for secrets, line by line: where each is (file, line, rule), never the secret itself. */
import { type OpenBytes, readLines } from '@agentdash/core';
import { findSecrets, secretRulesOf } from '@agentdash/core/secrets';

export interface SecretFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
}

/**
 * Secrets of one line: in its parsed value, read as exports redact it (core's `secretRulesOf`: each string with the
 * key it stands under, JSON held in a string as JSON, `\n` in JSON a line break), else in its raw text.
 */
function lineSecrets(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return findSecrets(text).map((f) => f.rule);
  }
  return secretRulesOf(value);
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
