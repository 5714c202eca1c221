import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { EditRenderer } from './files';
import { callOf } from './test-call';

/** The rows of the diff: its sign and text. */
const rows = (html: string) =>
  [...html.matchAll(/<tr(?: class="(add|del)")?><td class="sign">([^<]*)<\/td><td class="code-cell">([^<]*)</g)].map(
    (m) => `${m[2] || ' '}${m[3]}`,
  );

describe('an edit with no patch recorded (Copilot CLI, Gemini CLI 0.20)', () => {
  it('shows the lines its replacement changes among those it keeps, not all removed and all added', () => {
    const before = Array.from({ length: 56 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i % 7 === 3 ? `${line} changed` : line));
    const input = { path: '/p/a.ts', old_str: before.join('\n'), new_str: after.join('\n') };
    const typedInput = { filePath: '/p/a.ts', oldString: before.join('\n'), newString: after.join('\n') };
    const typed = { kind: 'edit', tool: 'edit', data: { structuredPatch: [] } } as unknown as TypedResult;
    const html = renderToStaticMarkup(
      <EditRenderer call={callOf('edit', input, 'File edited.', typed, 'edit', typedInput)} />,
    );
    const lines = rows(html);
    expect(lines).toHaveLength(64);
    expect(lines.filter((l) => l.startsWith('-'))).toEqual(before.filter((_, i) => i % 7 === 3).map((l) => `-${l}`));
    expect(lines.filter((l) => l.startsWith('+'))).toHaveLength(8);
    expect(lines.slice(0, 5)).toEqual([' line 0', ' line 1', ' line 2', '-line 3', '+line 3 changed']);
  });
});
