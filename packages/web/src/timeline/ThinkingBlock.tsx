import { Markdown } from '../ui/Markdown';

/**
 * The first non-blank line of a thinking text, for its collapsed summary, without the Markdown marks the summary
 * would otherwise show as they are: a heading's `#`s and the `**` around bold words (Codex writes every reasoning
 * summary as `**Title**` then its text). Underscores stay: `__init__` is a name more often than emphasis.
 */
export function thinkingPreview(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '$1')
    .slice(0, 300);
}

/** A thinking block, collapsed to its first line; open, its text as Markdown (as the assistant's text is shown). */
export function ThinkingBlock({ thinking, redacted }: { thinking: string; redacted: boolean }) {
  return (
    <details className="thinking" data-testid="thinking">
      <summary>
        ✦ {redacted ? 'Redacted thinking' : 'Thinking'}
        {!redacted && <span className="thinking-first">{thinkingPreview(thinking)}</span>}
      </summary>
      {!redacted && (
        <div className="body">
          <Markdown text={thinking} />
        </div>
      )}
    </details>
  );
}
