import type { ParseIssue } from '../../model/issue.js';
import type { TranscriptRecord } from '../../model/record.js';

/** A record or an issue, as a reader streams them (the shape every adapter's reader emits). */
export type GeminiRecordEvent =
  | { readonly kind: 'record'; readonly record: TranscriptRecord; readonly byteLength: number }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };
