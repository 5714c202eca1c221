import { noteFields } from '@agentdash/core/present';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoteText } from './NoteText';

// A background task's notice as Claude Code 2.1.330 wrote it (the subagents sample session).
const notice = `<task-notification>
<task-id>a6f077947b965e76e</task-id>
<tool-use-id>toolu_016ge2MuFvBbXu6F9Mfbslwx</tool-use-id>
<output-file>/tmp/claude-0/-home-user-proj-subagents/410c10d6/tasks/a6f077947b965e76e.output</output-file>
<status>completed</status>
<summary>Agent "Background job" finished</summary>
<result>Background agent report: done.</result>
<usage><subagent_tokens>14832</subagent_tokens><tool_uses>1</tool_uses><duration_ms>3649</duration_ms></usage>
</task-notification>`;

describe('a client note', () => {
  it('keeps the names of its fields, and every value', () => {
    const text = noteFields(notice);
    expect(text).toContain('task id: a6f077947b965e76e');
    expect(text).toContain('tool use id: toolu_016ge2MuFvBbXu6F9Mfbslwx');
    expect(text).toContain(
      'output file: /tmp/claude-0/-home-user-proj-subagents/410c10d6/tasks/a6f077947b965e76e.output',
    );
    expect(text).toContain('status: completed');
    expect(text).toContain('result: Background agent report: done.');
    expect(text).toContain('duration ms: 3649');
    expect(text).not.toMatch(/[<>]/);
    // Comparisons are text, not tags; so is HTML (`<b>` is no client's field).
    expect(noteFields('if a < b and c > d then <b>stop</b>')).toBe('if a < b and c > d then <b>stop</b>');
    expect(noteFields('if a < b and c > d then <verdict>stop</verdict>')).toBe('if a < b and c > d then verdict: stop');
  });

  it('folds a long note behind a button, never cutting it for good', () => {
    const html = renderToStaticMarkup(<NoteText text={notice} />);
    expect(html).toContain('note-text folded');
    expect(html).toContain('data-testid="note-more"');
    const short = renderToStaticMarkup(<NoteText text="Compacted the conversation." />);
    expect(short).not.toContain('note-more');
  });
});
