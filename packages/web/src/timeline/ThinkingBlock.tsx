import { isThinkingUnwritten, UNWRITTEN_THINKING } from '@agentdash/core/present';
import { Markdown } from '../ui/Markdown';
import { useKeptOpen } from './context';

/**
 * The first non-blank line of a thinking text, for its collapsed summary, without the Markdown marks the summary
 * would otherwise show as they are: a heading's `#`s and the `**` around bold words (Codex writes every reasoning
 * summary as `**Title**` then its text). Underscores stay: `__init__` is a name more often than emphasis.
 */
export function thinkingPreview(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return (
    line
      .replace(/^#{1,6}\s+/, '')
      // (no lookbehind: Safari before 16.4 cannot parse one, and the page's whole script would fail)
      .replace(/\*\*(\S(?:.*?\S)?)\*\*/g, '$1')
      .slice(0, 300)
  );
}

/**
 * A thinking block, collapsed to its first line (opened and closed with the timeline's "Expand all" / "Collapse
 * all"); open, its text as Markdown (as the assistant's text is shown). The Markdown is made only once it is opened: a long session holds hundreds of thinking blocks, mostly never opened.
 */
export function ThinkingBlock({
  thinking,
  redacted,
  open: initiallyOpen = false,
  keptAs = '',
}: {
  thinking: string;
  redacted: boolean;
  /** Open at first (the tests render it so). */
  open?: boolean;
  /** Its place in the session (response and item), under which its state is kept across scrolling (`useKeptOpen`). */
  keptAs?: string;
}) {
  // "Expand all" / "Collapse all" act on it as on every block, on one mounted later (scrolled to) too; scrolled away
  // and back, it is as the reader left it. (No jump opens it: its key is no call's id.)
  const [open, setOpen] = useKeptOpen(`thinking:${keptAs}`, { initial: () => initiallyOpen });
  // kept without its text: said so, nothing to open (an empty box opened before)
  if (isThinkingUnwritten({ thinking, redacted })) {
    return (
      <div className="thinking thinking-unwritten" data-testid="thinking">
        ✦ {UNWRITTEN_THINKING.charAt(0).toUpperCase()}
        {UNWRITTEN_THINKING.slice(1)}
      </div>
    );
  }
  return (
    <details
      className="thinking"
      data-testid="thinking"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        ✦ {redacted ? 'Redacted thinking' : 'Thinking'}
        {/* open, the text itself follows: the preview would repeat its first line */}
        {!redacted && !open && <span className="thinking-first">{thinkingPreview(thinking)}</span>}
      </summary>
      {!redacted && open && (
        <div className="body">
          <Markdown text={thinking} />
        </div>
      )}
    </details>
  );
}
