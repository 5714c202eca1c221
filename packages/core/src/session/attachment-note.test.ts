/**
 * Claude Code 2.1.x writes some of a session's words only as `attachment` records: a message the person typed while
 * the agent worked (`queued_command`, `commandMode: "prompt"`, delivered to the model mid-turn: no user record holds
 * it), a background task's notification, and what hooks printed or told the person. The timeline drew every
 * attachment as a bare label and search had none of them: the person's own words were in no view. Now those are
 * notes with their text, the person's queued messages and hooks' messages shown by default.
 * Fixture: ../shared/wild entire-graph-4 (Claude Code 2.1.218), its first 45 lines but the skill listing.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions, repoRoot } from '../../test/helpers.js';
import type { AttachmentRecord } from '../model/record.js';
import { noteSourceOf } from './note-source.js';
import { shownOf } from './thread-tally.js';

const HOME = join(repoRoot, 'packages/core/test/fixtures/claude-attachments');

describe('attachments that hold words', () => {
  it("shows the person's queued message and a hook's message, with their text", async () => {
    const [session] = await loadSessions(HOME);
    const attachments = (session?.events ?? []).flatMap((e) => (e.kind === 'attachment' ? [e.record] : []));
    const shown = (a: AttachmentRecord) => [a.attachmentType, shownOf(a), noteSourceOf(a)];
    expect(attachments.filter((a) => shownOf(a) !== undefined).map(shown)).toEqual([
      ['hook_system_message', 'note', '\n\nEntire CLI will link this conversation to your next commit.'],
      ['queued_command', 'note', 'Note that entiredb is checked out in ~/Project, but needs a pull'],
    ]);
    // a hook's output is there to read when hidden notes are shown: its command's stdout
    const hook = attachments.find((a) => a.attachmentType === 'hook_success');
    expect([shownOf(hook as AttachmentRecord), noteSourceOf(hook as AttachmentRecord)?.slice(0, 16)]).toEqual([
      undefined,
      expect.any(String),
    ]);
  });
});
