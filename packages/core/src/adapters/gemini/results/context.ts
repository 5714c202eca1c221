import type { ImageValue } from '../../../model/content.js';

/** Everything a Gemini result typer reads: the call's arguments and the recorded outcome. */
export interface GeminiResultContext {
  /** Tool name as written. */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The response text (`functionResponse.response.output`, or its `error`), `<untrusted_context>` wrapper removed. */
  readonly text: string;
  /** `resultDisplay` as written: a string, an object (file diffs, grep matches, subagent progress) or undefined. */
  readonly display: unknown;
  /** `status`: success, error, cancelled, … */
  readonly status: string | undefined;
  /** `agentId` of a call that ran a subagent. */
  readonly agentId: string | undefined;
  readonly displayName: string | undefined;
  readonly images: readonly ImageValue[];
}

/** Remove the `<untrusted_context>…</untrusted_context>` wrapper 0.61 puts around tool output. */
export function unwrapUntrusted(text: string): string {
  return text.replace(/<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>/g, '$1');
}
