import { formatCount } from '@agentdash/core/present';
import { type ReactNode, useState } from 'react';

/**
 * Characters of a prompt or reply drawn at first: a 5 MB prompt drawn whole took 9.6 s to show and 80,000 elements
 * (a normal long prompt, a pasted file, is far shorter). The rest is drawn when asked for, or when find-in-session
 * looks for a match in it (use-jump.ts presses `long-text-more`).
 */
export const LONG_TEXT_CHARS = 100_000;

/** `text` drawn by `render`, its first `LONG_TEXT_CHARS` characters until "Show all" is pressed. */
export function LongText({ text, render }: { readonly text: string; readonly render: (text: string) => ReactNode }) {
  const [all, setAll] = useState(false);
  if (all || text.length <= LONG_TEXT_CHARS) return render(text);
  return (
    <>
      {render(text.slice(0, LONG_TEXT_CHARS))}
      <div className="truncated-note" data-testid="long-text-note">
        The first {formatCount(LONG_TEXT_CHARS)} of {formatCount(text.length)} characters.
        <button type="button" className="btn small" onClick={() => setAll(true)} data-testid="long-text-more">
          Show all
        </button>
      </div>
    </>
  );
}
