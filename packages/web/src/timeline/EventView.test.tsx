import type { EventDto } from '@agentdash/api';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EventView } from './EventView';
import { InTimeline } from './test-context';

/** A Codex 0.169 compaction's response: billed (its usage), its summary shown by the note after it, no items. */
const compaction: Extract<EventDto, { kind: 'assistant' }> = {
  kind: 'assistant',
  index: 7,
  messageId: 'resp-7',
  timestamp: '2026-11-23T00:58:40.000Z',
  model: 'gpt-5.5',
  usage: {
    inputTokens: 12_000,
    outputTokens: 68,
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: 0,
  },
  stopReason: null,
  isApiError: false,
  isSynthetic: false,
  items: [],
};

describe('an assistant event', () => {
  it('with nothing to show is one line with its model and tokens, not an empty box', () => {
    const html = renderToStaticMarkup(<EventView event={compaction} />);
    expect(html).toContain('data-testid="assistant-empty"');
    expect(html).not.toContain('data-testid="assistant"');
    expect(html).toContain('gpt-5.5 · 68 tokens out · no text');
    // a model its files never name says so (the placeholder id is no model's name)
    const unnamed = renderToStaticMarkup(<EventView event={{ ...compaction, model: 'codex-unknown-model' }} />);
    expect(unnamed).toContain('unknown Codex model · 68 tokens out · no text');
  });

  it('with text is the assistant box, its tokens out in its label', () => {
    const html = renderToStaticMarkup(
      <EventView event={{ ...compaction, items: [{ kind: 'text', text: 'Read all six files.' }] }} />,
    );
    expect(html).toContain('data-testid="assistant"');
    expect(html).toContain('68 tokens out · ');
    expect(html).toContain('Read all six files.');
  });

  it("whose records kept only the stream's first output count says its output is more", () => {
    // Claude Code 1.0.98 wrote both block records of this response before its final count (fixtures/stream-counts).
    const usage = { inputTokens: 9, outputTokens: 1, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 };
    const cut = { ...compaction, usage: { ...usage, cacheReadInputTokens: 0, outputAtLeast: 3 } };
    const html = renderToStaticMarkup(<EventView event={{ ...cut, items: [{ kind: 'text', text: 'Now I will.' }] }} />);
    expect(html).toContain('1 + ? tokens out · ');
    expect(renderToStaticMarkup(<EventView event={cut} />)).toContain('gpt-5.5 · 1 + ? tokens out · no text');
  });

  it('after a one-line response is labelled again, not drawn as its continuation', () => {
    const answer = { ...compaction, index: 8, items: [{ kind: 'text' as const, text: 'Read all six files.' }] };
    const after = (previous: EventDto) => renderToStaticMarkup(<EventView event={answer} previous={previous} />);
    expect(after(compaction)).not.toContain('ev-cont');
    expect(after({ ...answer, index: 6 })).toContain('ev-cont');
  });
});

describe('a whitespace-only text block', () => {
  it('draws no empty text box with a Copy button (Claude opus-4-6 writes "\\n\\n" before its thinking)', () => {
    const html = renderToStaticMarkup(
      <EventView
        event={{
          ...compaction,
          items: [
            { kind: 'text', text: '\n\n' },
            { kind: 'thinking', thinking: 'Plan.', redacted: false },
          ],
        }}
      />,
    );
    expect(html).toContain('data-testid="assistant"');
    expect(html).not.toContain('data-testid="assistant-text"');
    const alone = renderToStaticMarkup(<EventView event={{ ...compaction, items: [{ kind: 'text', text: ' \n' }] }} />);
    expect(alone).toContain('data-testid="assistant-empty"');
  });
});

describe('thinking kept without its text', () => {
  it('is said once for a run of such blocks, and again after a block with text (core repeatsUnwrittenThinking)', () => {
    const unwritten = { kind: 'thinking' as const, thinking: '', redacted: false };
    const html = renderToStaticMarkup(
      <EventView
        event={{
          ...compaction,
          items: [unwritten, unwritten, { kind: 'text', text: 'Done.' }, unwritten],
        }}
      />,
    );
    expect(html.split('its text not recorded').length - 1).toBe(2);
  });
});

describe("a response's block of another kind", () => {
  it('is named and its raw data shown on demand, escaped (it once said "[unknown]" and nothing more)', () => {
    const raw = { kind: 'unknown', type: 'fallback', raw: { type: 'fallback', to: '<img src=x onerror=alert(1)>' } };
    const html = renderToStaticMarkup(
      <EventView
        event={{
          ...compaction,
          items: [
            { kind: 'other-block', type: 'unknown', raw },
            { kind: 'other-block', type: 'omitted', raw: { omittedBlocks: 9 } },
          ],
        }}
      />,
    );
    expect([...html.matchAll(/<span class="badge neutral">([^<]*)</g)].map((m) => m[1])).toEqual([
      'unknown block fallback',
      'blocks left out',
    ]);
    expect(html).toContain('&quot;to&quot;: &quot;&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(html).not.toContain('<img');
  });
});

describe("a prompt's block besides its text and images", () => {
  it('is named and its raw data shown on demand (a PDF attached was dropped without a word)', () => {
    const document = { kind: 'document', raw: { type: 'document', source: { media_type: 'application/pdf' } } };
    const prompt: EventDto = {
      kind: 'prompt',
      index: 0,
      uuid: 'u1',
      timestamp: null,
      text: 'Read the contract.',
      images: [],
      others: [{ type: 'document', raw: document }],
    };
    const html = renderToStaticMarkup(<EventView event={prompt} />);
    expect([...html.matchAll(/<span class="badge neutral">([^<]*)</g)].map((m) => m[1])).toEqual(['document']);
    expect(html).toContain('application/pdf');
  });
});

describe('an unknown record and a block of another kind', () => {
  const unknownRecord: EventDto = {
    kind: 'note',
    index: 3,
    timestamp: '2026-11-23T00:58:41.000Z',
    label: 'queue-operation',
    source: 'unknown',
    reason: null,
    level: null,
    text: '{"type":"queue-operation"}',
    truncated: false,
  };
  const withBlock: EventDto = {
    ...compaction,
    items: [{ kind: 'other-block', type: 'unknown', raw: { kind: 'unknown', type: 'fallback', raw: {} } }],
  };
  const under = (openAll: { version: number; open: boolean }, event: EventDto) =>
    renderToStaticMarkup(
      <InTimeline over={{ openAll }}>
        <EventView event={event} />
      </InTimeline>,
    );
  const openDetails = (html: string) => (html.match(/<details[^>]* open=""/g) ?? []).length;

  it('open with "Expand all" and shut with "Collapse all", as every block does (they stayed shut)', () => {
    for (const event of [unknownRecord, withBlock]) {
      expect(openDetails(under({ version: 0, open: false }, event))).toBe(0);
      expect(openDetails(under({ version: 1, open: true }, event))).toBe(1);
      expect(openDetails(under({ version: 2, open: false }, event))).toBe(0);
    }
    // shut, its raw data is there all the same (the browser's find-in-page reaches it)
    expect(under({ version: 0, open: false }, unknownRecord)).toContain(
      '{&quot;type&quot;:&quot;queue-operation&quot;}',
    );
  });
});
