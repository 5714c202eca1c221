/** Problems found while reading data. Parsing never throws on bad data: it reports these and goes on. */
export const parseIssueCodes = [
  'invalid_json',
  'invalid_utf8',
  'not_an_object',
  'line_too_long',
  'too_deep',
  'unknown_record',
  'schema_mismatch',
  'orphan_result',
  'duplicate_result',
  'reused_call_id',
  'unreadable_file',
  'glued_records',
  'missing_main_file',
  'import_failed',
  'resume_stub',
  'version_kept',
] as const;
export type ParseIssueCode = (typeof parseIssueCodes)[number];

export interface ParseIssue {
  readonly code: ParseIssueCode;
  /** File the issue was found in (absolute path as discovered). */
  readonly file: string;
  /** 1-based line number, 0 when the issue concerns the whole file. */
  readonly line: number;
  readonly message: string;
}

/** Result of a per-item decode: a value or an issue, never both. */
export type Decoded<T> =
  | {
      readonly ok: true;
      readonly value: T;
      readonly issue?: never;
      /** Problems that did not stop the decode (e.g. a part nested too deep, kept as text). */
      readonly issues?: readonly ParseIssue[];
    }
  | { readonly ok: false; readonly issue: ParseIssue; readonly value?: never; readonly issues?: never };

/** Where a piece of data came from. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  /** Byte offset of the start of the line. */
  readonly offset: number;
}
