import { useEffect, useRef } from 'react';

/** Every format `agentdash export` writes, as the server sends it (`GET /api/sessions/:id/export?format=`). */
const FORMATS = [
  { format: 'html', label: 'HTML page', what: 'one self-contained page, opens without a server' },
  { format: 'markdown', label: 'Markdown', what: 'a readable transcript' },
  { format: 'json', label: 'JSON', what: 'the session with every call and its typed result' },
  { format: 'envelope', label: 'Envelope (JSON Lines)', what: 'one line per tool call' },
] as const;

/**
 * The Export button: a disclosure of the formats, each a download with secrets redacted (links, not an ARIA menu: arrow
 * keys do not move in it, Tab does); closed by Esc, a click elsewhere, or the focus leaving it.
 */
export function ExportMenu({ sessionId }: { readonly sessionId: string }) {
  const ref = useRef<HTMLDetailsElement>(null);
  // closes on a click elsewhere and on Esc, as a menu does
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menu.contains(event.target as Node)) {
        // the focus on a format it hides goes back to the button that opened it, not to the page's start
        const focusInside = menu.contains(document.activeElement);
        menu.open = false;
        if (focusInside) menu.querySelector('summary')?.focus();
      }
    };
    // Tab past its last format: open, it would cover what the focus moved to
    const left = (event: FocusEvent) => {
      const menu = ref.current;
      if (menu?.open && event.relatedTarget instanceof Node && !menu.contains(event.relatedTarget)) menu.open = false;
    };
    const menu = ref.current;
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    menu?.addEventListener('focusout', left);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
      menu?.removeEventListener('focusout', left);
    };
  }, []);
  const base = `api/sessions/${encodeURIComponent(sessionId)}/export`;
  return (
    <details className="menu" ref={ref} data-testid="export-menu">
      <summary className="btn menu-summary" title="Download this session, secrets redacted">
        Export
      </summary>
      <div className="menu-list">
        {FORMATS.map((f) => (
          <a
            key={f.format}
            href={`${base}?format=${f.format}`}
            download
            data-testid={`export-${f.format}`}
            onClick={() => {
              if (ref.current) ref.current.open = false;
            }}
          >
            <span>{f.label}</span>
            <span className="dim">{f.what}</span>
          </a>
        ))}
      </div>
    </details>
  );
}
