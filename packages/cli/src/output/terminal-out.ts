/** Writing a document to a terminal: the text is made terminal-safe on its way, line breaks kept. */
import { type TextOut, terminalLines } from '../io.js';

/** A stream that may ask its writer to wait (`writeChunks` waits for 'drain' when `write` returns false). */
type MaybeDrainable = TextOut & { once?(event: 'drain', listener: () => void): unknown };

/**
 * `out` (a terminal) seen through `terminalLines`: no control character of the text reaches it, so an escape sequence
 * in a transcript cannot clear the screen or retitle the window. Waiting for 'drain' goes on working through it.
 */
export function terminalOut(out: MaybeDrainable): MaybeDrainable {
  return {
    write: (text: string) => out.write(terminalLines(text)),
    isTTY: out.isTTY,
    columns: out.columns,
    ...(typeof out.once === 'function'
      ? { once: (event: 'drain', listener: () => void) => out.once?.(event, listener) }
      : {}),
  };
}
