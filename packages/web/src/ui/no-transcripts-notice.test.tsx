import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoTranscriptsText } from './NoTranscriptsNotice';

describe('the notice of a folder that holds no transcripts', () => {
  it("names the folder in the terminal's words, escaped; nothing when every folder holds some", () => {
    const message = '/home/me/<Downloads> holds no Claude Code or Codex transcripts (looked for projects/*/*.jsonl)';
    const html = renderToStaticMarkup(<NoTranscriptsText folders={[{ path: '/home/me/<Downloads>', message }]} />);
    expect(html).toMatch(/data-testid="no-transcripts"/);
    expect(html).toMatch(/\/home\/me\/&lt;Downloads&gt; holds no Claude Code or Codex transcripts \(looked for/);
    expect(renderToStaticMarkup(<NoTranscriptsText folders={[]} />)).toBe('');
  });
});
