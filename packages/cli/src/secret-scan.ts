/** Scanning transcript files for secrets, line by line: where each is (file, line, rule), never the secret itself. */
import { type OpenBytes, readLines } from '@agentdash/core';
import { RawLines } from '@agentdash/core/secrets';

export interface SecretFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
}

/**
 * Findings of one file (one per line and rule), by line number as the index counts lines, its bytes from `open`
 * (default: the file on disk; the index's `openBytes` falls back to the archive); an unreadable file yields none (the
 * index reports it). Read with core's line reader, which is much faster than node:readline on large homes.
 */
export async function scanFile(file: string, open?: OpenBytes): Promise<SecretFinding[]> {
  const found: SecretFinding[] = [];
  // a line's findings as exports see them: a JSON Lines record's strings, a JSON document's strings on that line, a
  // private key over lines of its own (core's `RawLines`)
  const lines = new RawLines();
  try {
    await readLines(
      file,
      (event) => {
        if (event.kind !== 'line') return;
        // One finding per line and rule: a line often holds a secret twice (a tool's output as the model saw it and
        // as the client keeps it), which is one place to look at.
        for (const rule of lines.rules(event.text)) found.push({ file, line: event.line, rule });
      },
      open === undefined ? {} : { open },
    );
  } catch {
    // unreadable or vanished: nothing found
  }
  return found;
}
