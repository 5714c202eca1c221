import { useState } from 'react';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // insecure context or permission refused: the old way
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/**
 * A small button that copies `text` and says so for a moment (to a screen reader too: its word is a polite live
 * region). `name`: what it copies, for its accessible name where the word alone says nothing (`Copy prompt`).
 */
export function CopyButton({
  text,
  label = 'Copy',
  name,
  title,
  className = '',
  testId = 'copy',
}: {
  text: string | (() => string);
  label?: string;
  name?: string;
  title?: string;
  className?: string;
  testId?: string;
}) {
  const [state, setState] = useState<'idle' | 'done' | 'failed'>('idle');
  return (
    <button
      type="button"
      className={`copy-btn ${className}`}
      data-testid={testId}
      title={title ?? name ?? label}
      aria-label={state === 'idle' ? name : undefined}
      onClick={(e) => {
        e.stopPropagation();
        void copyText(typeof text === 'function' ? text() : text).then((ok) => {
          setState(ok ? 'done' : 'failed');
          setTimeout(() => setState('idle'), 1500);
        });
      }}
    >
      <span aria-live="polite">{state === 'done' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}</span>
    </button>
  );
}
