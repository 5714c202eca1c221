import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { EditRenderer, WriteRenderer } from './files';
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

/** A `write_file` as Gemini CLI 0.20.2 records an overwrite (corpus, edit scenario): no diff, no earlier text. */
const overwrite = (data: Record<string, unknown>) => {
  const content = 'def main():\n    print("hello, world")\n';
  const input = { file_path: '/home/user/proj/edit/hello.py', content };
  const typed = {
    kind: 'write',
    tool: 'write_file',
    data: { filePath: input.file_path, operation: 'update', content, structuredPatch: [], ...data },
  } as unknown as TypedResult;
  return callOf('write_file', input, `Successfully overwrote file: ${input.file_path}.`, typed, 'write', {
    filePath: input.file_path,
    content,
  });
};

describe('a write over a file whose earlier text was not recorded', () => {
  // Before: every line drawn as added, as for a new file, under an "update" badge.
  it('shows the new text as written and says the earlier text is unknown (Gemini CLI 0.20.2)', () => {
    const html = renderToStaticMarkup(<WriteRenderer call={overwrite({})} />);
    expect(rows(html)).toEqual([]);
    expect(html).toContain('data-testid="write-unknown-before"');
    expect(html).toContain('print(&quot;hello, world&quot;)');
  });

  it('diffs against the earlier text when the result recorded it but no patch (an unchanged overwrite)', () => {
    const html = renderToStaticMarkup(
      <WriteRenderer call={overwrite({ originalFile: 'def main():\n    print("hello")\n' })} />,
    );
    expect(rows(html)).toEqual([
      ' def main():',
      '-    print(&quot;hello&quot;)',
      '+    print(&quot;hello, world&quot;)',
    ]);
    expect(html).not.toContain('write-unknown-before');
  });
});
