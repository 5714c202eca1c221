import { type ReactNode, useRef } from 'react';
import { CopyButton } from './CopyButton';

/** A Markdown code block with a copy button (it copies the block's text as shown). */
export function CodeBlock({ children }: { children?: ReactNode }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="code-wrap">
      <pre ref={ref}>{children}</pre>
      <CopyButton text={() => ref.current?.textContent ?? ''} className="floating" testId="copy-code" />
    </div>
  );
}
