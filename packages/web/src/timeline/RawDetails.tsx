import type { ReactNode } from 'react';
import { useKeptOpen } from './context';

/**
 * A record or block shown by its name, its raw data on demand: an unknown record, a block of another kind. Opened and
 * closed with the timeline's "Expand all" / "Collapse all" as every block is, and kept as the reader left it across
 * scrolling (`useKeptOpen`, under `keptAs`: unique in the session).
 */
export function RawDetails({
  keptAs,
  summary,
  raw,
  testId,
}: {
  keptAs: string;
  summary: ReactNode;
  /** The raw data as text (escaped by React). */
  raw: string;
  testId: string;
}) {
  const [open, setOpen] = useKeptOpen(`raw:${keptAs}`);
  return (
    <details
      className="ev-note ev-unknown"
      data-testid={testId}
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{summary}</summary>
      {/* rendered shut too: the browser's find-in-page reaches it (and opens it) */}
      <pre className="json">{raw}</pre>
    </details>
  );
}
