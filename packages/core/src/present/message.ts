/** What went wrong, as one line's text: an `Error`'s message, else the thrown value as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
