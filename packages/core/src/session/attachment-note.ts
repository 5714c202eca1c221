/**
 * The words an `attachment` record holds (Claude Code 2.1.x writes some of a session's only so) and whether the
 * timeline shows it by default. The one rule for the timeline's notes, `show`, the exports and the index's search.
 */
import { type ImageValue, rawImage } from '../model/content.js';
import type { AttachmentRecord } from '../model/record.js';

/**
 * Attachments shown by default: what the person typed while the agent worked or a background task announced
 * (`queued_command`, delivered to the model mid-turn, in no user record), and what a hook told the person or why it
 * blocked. Hook output, reminders and listings are the client's bookkeeping: shown when hidden notes are.
 */
const SHOWN: ReadonlySet<string> = new Set([
  'queued_command',
  'hook_system_message',
  'hook_blocking_error',
  'hook_non_blocking_error',
]);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A string, or the texts of an array of strings and text blocks (a queued message with an image keeps its text). */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (!Array.isArray(v)) return undefined;
  const parts = v.flatMap((b) => {
    if (typeof b === 'string') return [b];
    const text = typeof b === 'object' && b !== null ? (b as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? [text] : [];
  });
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** The note's text: the words the attachment holds, undefined for one of none (a listing, a mode's marker). */
export function attachmentText(record: AttachmentRecord): string | undefined {
  const a = record.attachment;
  switch (record.attachmentType) {
    case 'queued_command':
      return textOf(a.prompt);
    case 'hook_blocking_error': {
      const blocking = a.blockingError;
      const inner = typeof blocking === 'object' && blocking !== null ? (blocking as Record<string, unknown>) : {};
      return str(inner.blockingError) ?? str(blocking) ?? str(a.stderr);
    }
    case 'edited_text_file':
      return [str(a.filename), str(a.snippet)].filter((s) => s !== undefined).join('\n') || undefined;
    default: {
      // a hook's message or context (`content`), else what its command printed
      const content = textOf(a.content) ?? textOf(a.text);
      if (content !== undefined) return content;
      const printed = [str(a.stdout), str(a.stderr)].filter((s) => s !== undefined);
      return printed.length > 0 ? printed.join('\n') : undefined;
    }
  }
}

/** 'note' when the timeline shows the attachment by default (`SHOWN`, and it holds words or images), else undefined. */
export function attachmentShows(record: AttachmentRecord): 'note' | undefined {
  const held = attachmentText(record) !== undefined || attachmentImages(record).length > 0;
  return SHOWN.has(record.attachmentType) && held ? 'note' : undefined;
}

/** The images an attachment holds: a queued message's pasted ones (`prompt`: text and image blocks). */
export function attachmentImages(record: AttachmentRecord): ImageValue[] {
  const prompt = record.attachment.prompt;
  if (!Array.isArray(prompt)) return [];
  return prompt.flatMap((block) => rawImage(block) ?? []);
}

/**
 * The note's label: a queued message by who sent it (`queued-prompt`, the person's; `task-notification`, a background
 * task's), else the attachment's type.
 */
export function attachmentLabel(record: AttachmentRecord): string {
  if (record.attachmentType !== 'queued_command') return record.attachmentType;
  const mode = str(record.attachment.commandMode);
  return mode === 'prompt' || mode === undefined ? 'queued-prompt' : mode;
}
