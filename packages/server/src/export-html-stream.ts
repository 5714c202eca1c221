/**
 * The HTML export of a session written as it is read (`openSessionStream`): the page `sessionHtmlChunks` writes for
 * the loaded session, byte for byte, in memory that does not grow with the session's text. The header, the errors
 * and where each call shows come from a first read of the threads and calls (`outlineOfStream`, a few facts per
 * call); the threads are then written event by event; the calls cut in them are taken whole from a last read of the
 * threads that hold them.
 * @module
 */
import type { SessionStream } from '@agentdash/core';
import type { TimelineEvent, ToolCall } from '@agentdash/core/model';
import type { CallDto } from './api-types.js';
import { ARRAY_LIMIT, callDtoOf, eventDtoOf, shownByDefault } from './event-dto.js';
import { type ExportAssets, type ExportRedaction, type HtmlSource, htmlChunks } from './export-html.js';
import type { SessionParts } from './session-json.js';
import { outlineOfStream } from './session-outline.js';

/** What the page embeds of a streamed session, each part through `parts` (say, a redaction) first. */
export async function streamHtmlSource(stream: SessionStream, parts: SessionParts): Promise<HtmlSource> {
  const outline = await outlineOfStream(stream, parts);
  const keys = stream.subagents.map((sub) => sub.key);
  const threads = [undefined, ...outline.subagents.map((sub) => sub.key)];
  const known = new Set(outline.callIds);
  /** The stream's threads a page thread is read from: without a main file, the subagents no call started. */
  const sourcesOf = (thread: number): (string | undefined)[] =>
    thread > 0
      ? [keys[thread - 1]]
      : outline.hasMain
        ? [undefined]
        : keys.filter((_, i) => outline.subagents[i]?.parentCallId === undefined);

  /** The events of a page thread the timeline shows, as read (whether one shows never depends on its text). */
  async function* shown(thread: number): AsyncGenerator<TimelineEvent, void> {
    for (const key of sourcesOf(thread))
      for await (const read of stream.events(key)) if (shownByDefault(read)) yield read;
  }

  return {
    title: outline.head.title,
    detail: (row) => ({ session: row, ...outline.detail }),
    issues: outline.tail.issues,
    errors: outline.errors,
    files: outline.files,
    threads,
    async *events(thread) {
      let index = 0;
      for await (const read of shown(thread)) yield eventDtoOf(parts.event(read), index++, outline.subagentOf);
    },
    async *wholeCalls(cut) {
      let at = 0;
      while (at < cut.length) {
        const thread = cut[at]?.thread;
        if (thread === undefined) break;
        const mine = () => cut[at]?.thread === thread;
        // A page holds an event's first ARRAY_LIMIT items: the cut calls are among them, in their order. Only their
        // identifiers are redacted to find them; the calls taken are redacted whole.
        for await (const read of shown(thread)) {
          if (read.kind !== 'assistant') continue;
          const ids = parts.ids(read);
          if (ids.kind !== 'assistant') continue;
          for (const [i, item] of ids.items.slice(0, ARRAY_LIMIT).entries()) {
            if (!mine()) break;
            if (item.kind !== 'tool-call' || item.id !== cut[at]?.id) continue;
            at++;
            const call = read.items[i];
            if (known.has(item.id) && call?.kind === 'tool-call') yield wholeCall(parts.call(call));
          }
          if (!mine()) break;
        }
        while (mine()) at++;
      }
    },
    *places() {
      for (const id of outline.callIds) yield [id, outline.locate(id)] as const;
    },
  };

  function wholeCall(call: ToolCall): readonly [string, CallDto] {
    return [call.id, callDtoOf(call, true, outline.subagentOf)];
  }
}

/** `sessionHtmlChunks` of a streamed session, each part through `parts` (the redaction `redaction` reports). */
export async function* streamHtmlChunks(
  stream: SessionStream,
  parts: SessionParts,
  summary: unknown,
  assets: ExportAssets,
  redaction: ExportRedaction,
  exportedAt: string = new Date().toISOString(),
): AsyncGenerator<string, void, undefined> {
  yield* htmlChunks(await streamHtmlSource(stream, parts), summary, assets, redaction, exportedAt);
}
