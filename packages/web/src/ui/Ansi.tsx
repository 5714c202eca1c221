import { hasControls, keepColours, plainText } from '@agentdash/core/present';
import Anser from 'anser';
import type { CSSProperties } from 'react';

/**
 * ANSI-coloured text as React spans (never HTML). Other control sequences (hyperlinks, titles, cursor moves, erases)
 * and control characters are taken out (`keepColours`), the words they carry kept.
 */
export function Ansi({ text: raw, className }: { text: string; className?: string }) {
  const text = hasControls(raw) ? keepColours(raw) : raw;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are control characters
  if (!/\u001b\[/.test(text)) return <span className={className}>{text}</span>;
  const parts = Anser.ansiToJson(text, { json: true, remove_empty: true, use_classes: false });
  return (
    <span className={className}>
      {parts.map((p, i) => {
        const style: CSSProperties = {};
        if (p.fg) style.color = `rgb(${p.fg})`;
        if (p.bg) style.backgroundColor = `rgb(${p.bg})`;
        const decorations = p.decorations ?? [];
        const cls = decorations.map((d) => `ansi-${d}`).join(' ');
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans of one static text
          <span key={i} style={style} className={cls || undefined}>
            {plainText(p.content)}
          </span>
        );
      })}
    </span>
  );
}
