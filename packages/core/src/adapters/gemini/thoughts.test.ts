import { describe, expect, it } from 'vitest';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { discoverGemini } from './discover.js';
import { home061 } from './test-helpers.js';

describe("a Gemini thought's subject", () => {
  // Before: "Planning the inspection\nThe user wants…", which Markdown renders as one paragraph.
  it('stands a paragraph of its own above its description (0.61 thoughts scenario)', async () => {
    const { files } = await discoverGemini(home061);
    const groups = groupSessions(files).filter((g) => g.main?.path.includes('/thoughts/'));
    expect(groups).toHaveLength(1);
    const [group] = groups;
    if (group === undefined) throw new Error('no session');
    const session = await loadSession(group);
    const thoughts = session.events.flatMap((e) =>
      e.kind === 'assistant' ? e.items.flatMap((i) => (i.kind === 'thinking' ? [i.thinking] : [])) : [],
    );
    expect(thoughts.length).toBeGreaterThan(0);
    expect(thoughts[0]).toMatch(/^Planning the inspection\n\nThe user wants the output of src\/app\.js\./);
    for (const thought of thoughts) expect(thought).not.toMatch(/^[^\n]+\n[^\n]/);
  });
});
