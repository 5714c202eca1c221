/**
 * The Markdown export shows what a file call changed, as a diff under its one line: a Write's content, an Edit's and
 * a MultiEdit's hunks (or, when it failed, what it asked for), a Codex patch's files. It wrote the one line alone
 * ("Write created.txt (2 lines)"), the change only in the JSON and HTML exports.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverAll, groupSessions, loadSession } from '@agentdash/core';
import { describe, expect, it } from 'vitest';
import { markdownChunks } from './export-formats.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');

async function markdownOf(path: string, id: string): Promise<string> {
  const group = groupSessions((await discoverAll([path])).files).find((g) => g.sessionId.startsWith(id));
  if (group === undefined) throw new Error(`no session ${id} under ${path}`);
  let markdown = '';
  for await (const piece of markdownChunks(await loadSession(group))) markdown += piece;
  return markdown;
}

/** The fenced diff right under the call whose line starts with `- **<head>` (undefined when it has none). */
function diffAfter(markdown: string, head: string): string | undefined {
  const at = markdown.indexOf(`- **${head}`);
  return at < 0 ? undefined : /^[^\n]*\n\n```diff\n([\s\S]*?)\n```\n/.exec(markdown.slice(at))?.[1];
}

describe("the Markdown export's file changes (Claude Code 2.1.332, the files and edit scenarios)", () => {
  const home = join(fixtures, 'claude-code/2.1.332/claude-home');

  it("writes a new file's lines as added, an edit's hunks as recorded", async () => {
    expect(diffAfter(await markdownOf(home, 'ce8e3937'), 'Write new.txt')).toBe('@@ -0,0 +1,2 @@\n+alpha\n+beta');
    expect(diffAfter(await markdownOf(home, '160b273b'), 'Edit app.js \\+1 −1** · ok')).toBe(
      '@@ -1,2 +1,2 @@\n-const greeting = "hello";\n+const greeting = "hello, world";\n console.log(greeting);',
    );
  });

  it('a failed edit shows what it asked for, and no counts of lines it did not change', async () => {
    const md = await markdownOf(home, '160b273b');
    expect(diffAfter(md, 'Edit app.js → string-not-found')).toBe('@@\n-no such text\n+x');
  });
});

describe("the Markdown export's Codex patches (Codex CLI 0.98.0, the patch scenario)", () => {
  it('names each patched file, its move, and writes its hunks; a failed one as it was written', async () => {
    const md = await markdownOf(join(fixtures, 'codex/0.98.0/codex-home'), '01a205e9-b2c9');
    expect(diffAfter(md, 'apply\\_patch app.txt')).toBe(
      '*** update app.txt\n@@\n name = demo\n-version = 1\n+version = 2\n mode = fast',
    );
    expect(diffAfter(md, 'apply\\_patch move-me.txt')).toBe(
      '*** move move-me.txt → moved/moved.txt\n@@\n-moving\n+moved',
    );
    // a patch that did not apply: as the call wrote it (it showed nothing but the error)
    expect(diffAfter(md, 'apply\\_patch app.txt → string-not-found')).toBe(
      '*** Begin Patch\n*** Update File: app.txt\n@@\n this context does not exist\n-nor this line\n+replacement\n*** End Patch',
    );
  });
});
