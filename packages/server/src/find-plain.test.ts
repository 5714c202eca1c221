/**
 * Find in a session matches and cuts the text as the page shows it: terminal control text out. A command's output
 * with colours and cursor codes (../shared/wild fe5e1c67, an interactive prompt's `ESC[?25l ESC[2K ESC[1G ESC[36m?`)
 * gave snippets full of escape codes, and a phrase split by a colour code was not found.
 */
import { findInThreads } from '@agentdash/api';
import { plainText } from '@agentdash/core/present';
import { describe, expect, it } from 'vitest';

const OUTPUT =
  '\u001b[?25l\u001b[2K\u001b[1G\u001b[36m?\u001b[39m \u001b[1mWould you like\u001b[22m your code checked?';
const events = [
  {
    kind: 'assistant',
    items: [
      { kind: 'tool-call', id: 'toolu_1', name: 'Bash', input: { command: 'npx init' }, result: { content: OUTPUT } },
    ],
  },
];

describe('find over terminal output', () => {
  it('finds a phrase a colour code splits, its snippet without control text', () => {
    const { hits, total } = findInThreads(
      (key) => (key === undefined ? events : undefined),
      'would you like your code',
      undefined,
      plainText,
    );
    expect(total).toBe(1);
    expect(hits[0]?.snippet).toContain('? Would you like your code checked?');
    expect(hits[0]?.snippet).not.toContain('\u001b');
  });
});
