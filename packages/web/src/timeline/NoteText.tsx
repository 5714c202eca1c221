import { noteFields } from '@agentdash/core/present';
import { useState } from 'react';

/** Characters and lines a note shows before it folds (a background task's notice holds its output path, its result…). */
const FOLD_CHARS = 400;
const FOLD_LINES = 4;

/** A note's text, folded when long, with a button to see all of it. */
export function NoteText({ text: raw }: { readonly text: string }) {
  const [open, setOpen] = useState(false);
  const text = noteFields(raw);
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
  return (
    <span className="note-body">
      <span className={`note-text ${long && !open ? 'folded' : ''}`} data-testid="note-text">
        {long && !open ? text.slice(0, FOLD_CHARS) : text}
      </span>
      {long && (
        <button type="button" className="link-btn" onClick={() => setOpen((o) => !o)} data-testid="note-more">
          {open ? 'less' : 'more'}
        </button>
      )}
    </span>
  );
}
