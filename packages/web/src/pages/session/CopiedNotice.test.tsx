import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CopiedFromDto, SessionDetail } from '../../data/types';
import { CopiedNotice } from './CopiedNotice';

const from: CopiedFromDto = {
  ref: '487fbe81-e917-46ad-a7c6-bf31cba53339',
  title: 'Reply with READY only.',
  sameSession: false,
  calls: 0,
  errors: 0,
  expectedErrors: 0,
  responses: 1,
  costUsd: 0.00018,
  callIds: [],
};
/** The copied responses' cost as the notice writes it, and its tooltip. */
const cost = (copied: CopiedFromDto) => {
  const html = renderToStaticMarkup(<CopiedNotice detail={{ copiedFrom: [copied] } as unknown as SessionDetail} />);
  const [, attributes, text] = /and their ?<b([^>]*)>([^<]*)<\/b>/.exec(html) ?? [];
  return [text, /title="([^"]*)"/.exec(attributes ?? '')?.[1]];
};

describe('the notice of what a resume copied', () => {
  it("gives the copied responses' cost as a lower bound (+ ?) when some recorded no input, and says why", () => {
    // Before: `$0.00018`, as if the Copilot CLI 1.0.68 response's input had cost nothing.
    expect(cost({ ...from, inputUnrecordedModels: ['gpt-5.4-mini'] })).toEqual([
      '$0.00018 + ?',
      'No input recorded for some responses of gpt-5.4-mini: only what was recorded is counted',
    ]);
    expect(cost(from)).toEqual(['$0.00018', undefined]);
  });
});

describe('the notice of what a resume copied, in words', () => {
  const words = (copied: CopiedFromDto) =>
    renderToStaticMarkup(<CopiedNotice detail={{ copiedFrom: [copied] } as unknown as SessionDetail} />)
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ');
  // Before: its calls and responses only, while the header's prompts left out the copied ones too (1.0.128 corpus fork
  // f79d7a1d: "1 prompt", 3 copied).
  it('names the copied prompts beside the calls and responses', () => {
    expect(words({ ...from, calls: 3, prompts: 3, responses: 6 })).toContain(
      '3 of its tool calls, 3 prompts and 6 responses are copied into this transcript',
    );
    expect(words({ ...from, calls: 3, prompts: 1, responses: 6 })).toContain('3 of its tool calls, 1 prompt and 6');
  });
  it('says nothing of prompts where the source does not tell (a team server) or none were copied', () => {
    expect(words({ ...from, calls: 3, responses: 6 })).toContain('3 of its tool calls and 6 responses are copied');
    expect(words({ ...from, calls: 3, prompts: 0, responses: 6 })).toContain('3 of its tool calls and 6 responses');
  });
});
