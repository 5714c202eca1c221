/**
 * The text of a record the timeline shows as a note, as the transcript holds it: a hidden user message's (a slash
 * command, what it printed, a compaction's summary), a system record's content, or for one without content (an API
 * error and its retry, a turn's duration) a line made of its data. The one source for the timeline's notes, find in a
 * session and the index's search documents.
 */
import type { TranscriptRecord } from '../model/record.js';
import { attachmentText } from './attachment-note.js';
import { userText } from './classify-user.js';

/** A note's text as logged; undefined for a record that is no user message, system record or attachment with words. */
export function noteSourceOf(record: TranscriptRecord): string | undefined {
  if (record.kind === 'user') return userText(record.content);
  if (record.kind === 'system') return record.content ?? systemText(record.data);
  if (record.kind === 'attachment') return attachmentText(record);
  return undefined;
}

/** A line for a system record without content (API errors with retries, durations…). */
function systemText(data: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const error = data.error;
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    const text = typeof e.formatted === 'string' ? e.formatted : typeof e.message === 'string' ? e.message : undefined;
    if (text) parts.push(text);
  } else if (typeof error === 'string') parts.push(error);
  if (typeof data.retryAttempt === 'number') {
    parts.push(
      `retry ${data.retryAttempt}${typeof data.maxRetries === 'number' ? ` of ${data.maxRetries}` : ''}` +
        (typeof data.retryInMs === 'number' ? ` in ${Math.round(data.retryInMs)} ms` : ''),
    );
  }
  if (typeof data.durationMs === 'number' && parts.length === 0) parts.push(`${Math.round(data.durationMs)} ms`);
  return parts.join(' · ');
}
