import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverAll, groupSessions, loadSession } from '@agentdash/core';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRedaction, sessionHtmlChunks } from './export-html.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-export-title-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an HTML export's tab title", () => {
  it('is the title without control sequences or characters, on one line, escaped', async () => {
    const id = '7171e000-0000-4000-8000-000000000001';
    const at = basesOf(id);
    writeLines(join(dir, 'projects', '-home-user-p', `${id}.jsonl`), [
      prompt(
        at('u1', null, 1),
        '\u001b[31mRED\u001b[0m \u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007 <b>\n  x\u0007',
      ),
      assistantText(at('a1', 'u1', 2), 'msg_title_1', 'ok'),
    ]);
    const [group] = groupSessions((await discoverAll([dir])).files);
    if (group === undefined) throw new Error('no session');
    const session = await loadSession(group);
    let html = '';
    const summary = { id, title: session.title, projectPath: session.projectPath };
    for await (const chunk of sessionHtmlChunks(
      session,
      summary,
      { js: '', css: '' },
      exportRedaction(false, undefined),
    ))
      html += chunk;
    const title = /<title>(.*?)<\/title>/s.exec(html)?.[1];
    expect(title).toBe('RED link &#60;b&#62; x · AgentDash export');
  });
});
