/**
 * A whole session's `--json` (`show`), written in pieces: apart from `commands/common.ts` so that the commands that
 * write a small answer do not load the session writers (and the parsers behind them).
 */
import type { SessionStream } from '@agentdash/core';
import { identifierParts, identifierSecretsOfStream, sessionJsonChunks } from '@agentdash/server/export-formats';
import { safeJsonText } from '../commands/common.js';
import type { Context } from '../context.js';
import { jsonChunks } from './json-chunks.js';
import { writeChunks } from './write-chunks.js';

/**
 * A session's `--json` written as it is read (`SessionStream`): the text `writeJsonStream` writes of the loaded
 * session, its identifiers redacted, in memory that does not grow with the session.
 */
export async function writeSessionJson(ctx: Context, stream: SessionStream): Promise<void> {
  const parts = identifierParts(await identifierSecretsOfStream(stream));
  async function* text(): AsyncGenerator<string, void, undefined> {
    yield* sessionJsonChunks(stream, parts);
    yield '\n';
  }
  // Escaped piece by piece: the controls it escapes are single characters, never split between pieces.
  await writeChunks(ctx.io.stdout, text(), { each: safeJsonText });
}

/** `writeJson` in pieces, for values that may be huge (a whole session): the same text, never one string. */
export async function writeJsonStream(ctx: Context, value: unknown): Promise<void> {
  function* text(): Generator<string, void, undefined> {
    yield* jsonChunks(value);
    yield '\n';
  }
  await writeChunks(ctx.io.stdout, text(), { each: safeJsonText });
}
