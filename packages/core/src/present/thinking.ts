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

type Item = { readonly kind: string; readonly thinking?: string; readonly redacted?: boolean };

const unwritten = (item: Item | undefined): boolean =>
  item?.kind === 'thinking' && isThinkingUnwritten({ thinking: item.thinking ?? '', redacted: item.redacted ?? false });

/**
 * Whether item `i` of a response is thinking without its text right after another such item: every surface says it
 * once per run of them (a wild Claude Code session holds 97 such blocks, most two in a row).
 */
export function repeatsUnwrittenThinking(items: readonly Item[], i: number): boolean {
  return i > 0 && unwritten(items[i]) && unwritten(items[i - 1]);
}
