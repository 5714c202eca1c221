import { formatCount } from '@agentdash/core/present';
import { type ReactNode, useState } from 'react';

/**
 * Characters of a prompt or reply drawn at first: a prompt of megabytes drawn whole takes seconds to show and tens
 * of thousands of elements (a normal long prompt, a pasted file, is far shorter). The rest is drawn when asked for, or when find-in-session
 * looks for a match in it (use-jump.ts presses `long-text-more`).
 */
export const LONG_TEXT_CHARS = 100_000;

/** The whole text of each text drawn in part, by its note (`wholeTextOf`). */
const wholeTexts = new WeakMap<Element, string>();

/**
 * The whole text of a text drawn in part, from its note (`long-text-note`): find-in-session draws the one that holds
 * its match, not every long text of the row.
 */
export function wholeTextOf(note: Element): string | undefined {
  return wholeTexts.get(note);
}

/** `text` drawn by `render`, its first `LONG_TEXT_CHARS` characters until "Show all" is pressed. */
export function LongText({ text, render }: { readonly text: string; readonly render: (text: string) => ReactNode }) {
  const [all, setAll] = useState(false);
  if (all || text.length <= LONG_TEXT_CHARS) return render(text);
  return (
    <>
      {render(text.slice(0, LONG_TEXT_CHARS))}
      <div
        className="truncated-note"
        data-testid="long-text-note"
        ref={(note) => {
          if (note) wholeTexts.set(note, text);
        }}
      >
        The first {formatCount(LONG_TEXT_CHARS)} of {formatCount(text.length)} characters.
        <button type="button" className="btn small" onClick={() => setAll(true)} data-testid="long-text-more">
          Show all
        </button>
      </div>
    </>
  );
}
