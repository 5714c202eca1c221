/**
 * Thinking a client kept without its text: Claude Code writes `{"thinking": "", "signature": …}` where the model's
 * thinking is not given back (the signature lets it be sent again), not a thought of no characters. Every surface
 * says so once ("its text not recorded"), as it says a redacted block is redacted.
 */
export function isThinkingUnwritten(item: { readonly thinking: string; readonly redacted: boolean }): boolean {
  return !item.redacted && item.thinking.trim() === '';
}

/** How a thinking block without its text is named (`isThinkingUnwritten`). */
export const UNWRITTEN_THINKING = 'thinking, its text not recorded';
