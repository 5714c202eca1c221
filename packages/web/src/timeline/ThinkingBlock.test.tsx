import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ThinkingBlock, thinkingPreview } from './ThinkingBlock';
import { InTimeline } from './test-context';

describe('a thinking block', () => {
  it('sums up a Codex reasoning summary without its Markdown marks', () => {
    const text = '**Inspecting the failing test**\n\nI am going to read `src/a.ts` first.';
    expect(thinkingPreview(text)).toBe('Inspecting the failing test');
    expect(thinkingPreview('\n\n## Plan\nstep one')).toBe('Plan');
    expect(thinkingPreview('fix __init__ and a ** b ** c')).toBe('fix __init__ and a ** b ** c');
  });

  it('shows its text as Markdown, raw HTML as text', () => {
    const html = renderToStaticMarkup(
      <ThinkingBlock thinking={'**Title**\n\n- one\n- <b>two</b>'} redacted={false} open />,
    );
    expect(html).toContain('<strong>Title</strong>');
    expect(html).toMatch(/<li>one<\/li>/);
    expect(html).toContain('&lt;b&gt;two&lt;/b&gt;');
    expect(html).not.toContain('**');
    // its first line once, in the text (before: also as the summary's preview)
    expect(html.match(/Title/g)).toHaveLength(1);
  });

  it('closed, makes no Markdown of its text (only its summary line)', () => {
    const html = renderToStaticMarkup(<ThinkingBlock thinking={'**Title**\n\n- one'} redacted={false} />);
    expect(html).toContain('Title');
    expect(html).not.toContain('<li>');
  });

  it('redacted, shows neither text nor preview', () => {
    const html = renderToStaticMarkup(<ThinkingBlock thinking="secret plan" redacted />);
    expect(html).toContain('Redacted thinking');
    expect(html).not.toContain('secret plan');
  });

  it('kept without its text (a signature only), says so and has nothing to open', () => {
    const html = renderToStaticMarkup(<ThinkingBlock thinking="" redacted={false} open />);
    expect(html).toContain('✦ Thinking, its text not recorded');
    expect(html).not.toContain('<details');
  });

  it('opens with "Expand all", as every block of the timeline does', () => {
    const under = (open: boolean) =>
      renderToStaticMarkup(
        <InTimeline over={{ openAll: { version: 1, open } }}>
          <ThinkingBlock thinking={'**Title**\n\n- one'} redacted={false} />
        </InTimeline>,
      );
    expect(under(true)).toContain('<li>one</li>');
    expect(under(false)).not.toContain('<li>');
  });
});
