/** `show`'s words for what a terminal cannot show: a prompt's or a queued message's pasted images. */
import { attachmentImages, noteSourceOf, type TimelineEvent } from '@agentdash/core';
import { imagesWord } from '@agentdash/core/present';
import type { Colors } from '../io.js';

/** A prompt's pasted images, named after its text (the terminal cannot show them): `[an image]`, `[3 images]`. */
export function imagesMark(count: number, c: Colors): string {
  return count === 0 ? '' : c.dim(`[${imagesWord(count)}]`);
}

/** An attachment's note: its words, and a queued message's pasted images named after them, as a prompt's are. */
export function attachmentNoteText(record: Extract<TimelineEvent, { kind: 'attachment' }>['record']): string {
  const pasted = attachmentImages(record).length;
  return [noteSourceOf(record), pasted > 0 ? `[${imagesWord(pasted)}]` : undefined]
    .filter((t) => t !== undefined)
    .join(' ');
}
