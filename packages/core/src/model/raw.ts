import type { ResultContent } from './content.js';
import type { IsoTimestamp, RecordUuid, ToolUseId } from './ids.js';
import type { ParseIssue, SourceLocation } from './issue.js';
import type { TranscriptRecord } from './record.js';

/*
 * What an agent adapter hands to shared code before results are typed: decoded records as they stream, and
 * tool calls and results as found, before pairing. Agent-neutral: every adapter produces these.
 */

/** One event of a streamed transcript: a decoded record (with the bytes of its line) or an issue. */
export type RecordEvent =
  | { readonly kind: 'record'; readonly record: TranscriptRecord; readonly byteLength: number }
  | { readonly kind: 'issue'; readonly issue: ParseIssue };

/** A tool call as found, before it is paired with its result. */
export interface RawCall {
  readonly id: ToolUseId;
  /** Tool name as the agent wrote it. */
  readonly name: string;
  readonly input: unknown;
  readonly timestamp: IsoTimestamp | undefined;
  readonly loc: SourceLocation;
  readonly messageId: string | undefined;
}

/** A tool result as found, before it is typed against its call. */
export interface RawResult {
  readonly toolUseId: ToolUseId;
  /** The record that carried the result. */
  readonly uuid: RecordUuid;
  readonly timestamp: IsoTimestamp | undefined;
  readonly loc: SourceLocation;
  /** The agent marked the call failed. */
  readonly isError: boolean;
  /** What the model was shown. */
  readonly content: ResultContent;
  /**
   * The structured output the agent wrote beside the content, as written (`toolUseResult` in Claude Code, whose
   * name the `show --json` contract keeps); undefined when there is none.
   */
  readonly toolUseResult: unknown;
}
