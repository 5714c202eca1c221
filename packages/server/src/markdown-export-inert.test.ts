/**
 * The Markdown export of a session full of HTML and script links, rendered by a CommonMark + GFM renderer told to let
 * raw HTML and every link through (as a careless viewer does): nothing of the transcript becomes an element or a
 * script link, and what the text says is still there, as text or code.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverFiles, groupSessions, loadSession, type Session } from '@agentdash/core';
import {
  assistantText,
  basesOf,
  nextSessionId,
  prompt,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownChunks } from './export-formats.js';
import { inertMarkdown } from './markdown-text.js';

const HOSTILE_PROMPT = 'Title <img src=x onerror="alert(1)"><script>alert(2)</script> and `<b>code</b>`';
const HOSTILE_REPLY = [
  'Here: <iframe src="javascript:alert(3)"></iframe> and [jslink](javascript:alert(4)) and <javascript:alert(5)>',
  '[ref]: javascript:alert(6)',
  '',
  '```html',
  '<b>kept as code</b>',
  '```',
  '',
  'An open fence:',
  '```',
  '<i>inside</i>',
].join('\n');

/** What a review found still getting through the first version of the rules, each a way around them. */
const BYPASSES = [
  '\\`<img src=x onerror=alert(11)>`',
  'x\r<script>alert(12)</script>',
  '- a\n  ```\n<img src=x onerror=alert(13)>',
  '[e](&#x6A;avascript:alert(14)) [c](javascript&colon;alert(15)) [b](javascript\\:alert(16))',
  '[n](\njavascript:alert(17))',
  '[r]:\njavascript:alert(18)\n\n[r]',
  '- [s]: javascript:alert(19)\n\n[s]',
  '```\nx\n  ```\n<img src=x onerror=alert(20)>',
].join('\n\n');

let dir: string;
let session: Session;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-md-inert-'));
  const id = nextSessionId();
  const at = basesOf(id);
  const b = (uuid: string, parent: string | null, second: number) => ({
    ...at(uuid, parent, second),
    cwd: '/home/user/pro`j<img src=y onerror=alert(7)>',
  });
  writeLines(join(dir, 'projects', '-home-user-proj', `${id}.jsonl`), [
    prompt(b('u1', null, 0), HOSTILE_PROMPT),
    assistantText(b('a1', 'u1', 1), 'msg_inert_1', HOSTILE_REPLY),
    assistantText(b('a1b', 'a1', 1), 'msg_inert_1b', BYPASSES),
    toolUse(b('a2', 'a1', 2), 'msg_inert_2', 'toolu_inert_1', 'Bash', { command: 'ls' }),
    toolResult(
      b('u2', 'a2', 3),
      'toolu_inert_1',
      '\u001b[31mred\u001b[0m \u001b]0;PWNED\u0007<script>alert(8)</script>',
      false,
    ),
    toolUse(b('a3', 'u2', 4), 'msg_inert_3', 'toolu_inert_2', 'Bash', { command: 'make' }),
    toolResult(b('u3', 'a3', 5), 'toolu_inert_2', 'progress 50%\r<img src=x onerror=alert(21)>', false),
  ]);
  const [group] = groupSessions((await discoverFiles([dir])).files);
  session = await loadSession(group!);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exported(): Promise<string> {
  let text = '';
  for await (const piece of markdownChunks(session)) text += piece;
  return text;
}

describe('the Markdown export of hostile text', () => {
  it('becomes no element and no script link in a renderer that lets HTML through', async () => {
    const markdown = await exported();
    const html = micromark(markdown, {
      allowDangerousHtml: true,
      allowDangerousProtocol: true,
      extensions: [gfm()],
      htmlExtensions: [gfmHtml()],
    });
    // The export's own elements only: headings, lists, paragraphs, code, details/summary of thinking.
    const tags = new Set([...html.matchAll(/<([a-z][a-z0-9]*)/g)].map((m) => m[1]));
    expect(
      [...tags].filter((t) => !['h1', 'h2', 'h3', 'ul', 'li', 'p', 'code', 'pre', 'strong', 'em', 'a'].includes(t!)),
    ).toEqual([]);
    expect(html).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
    expect(html).not.toMatch(/<(img|script|iframe|i|b)\b/);
    // Every link the text made has no script address once the browser decodes its attribute (`unsafe-javascript:…`
    // and `&#x6A;avascript:…` as written are addresses relative to the file).
    const decoded = (attr: string) =>
      attr
        .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
        .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => decoded(m[1] ?? ''));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a browser skips leading controls in an address
    expect(hrefs.filter((href) => /^[\s\u0000-\u001f]*(javascript|vbscript|data):/i.test(href))).toEqual([]);
    expect(hrefs.filter((href) => href.includes('alert')).length).toBeGreaterThan(5);
    // Nothing said is lost: the text as text, the code as code.
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('<code>&lt;b&gt;code&lt;/b&gt;</code>');
    expect(html).toContain('&lt;b&gt;kept as code&lt;/b&gt;');
    expect(html).toContain('&lt;i&gt;inside&lt;/i&gt;');
    // A tool's output is code, whatever it holds: the transcript's text, its control characters shown as symbols.
    expect(markdown).toContain('␛[31mred␛[0m ␛]0;PWNED␇<script>alert(8)</script>');
  });

  it('closes a fence a reply left open, so what follows is not code', async () => {
    const markdown = await exported();
    const html = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    // The Bash call after the reply is the export's list item, not code text.
    expect(html).toMatch(/<li><strong>.*ls.*<\/strong>/);
  });
});

describe('inertMarkdown', () => {
  it('leaves Markdown without HTML as it is', () => {
    const text =
      '# Plan\n\n- **bold** and `a < b` in code\n\n```ts\nconst x = a < b;\n```\n[docs](https://example.com)';
    expect(inertMarkdown(text)).toBe(text.replace('- **bold** and `a < b` in code', '- **bold** and `a < b` in code'));
  });

  it('writes < as &lt; in prose, keeps it in code spans and fences', () => {
    expect(inertMarkdown('a <b> `<c>` d')).toBe('a &lt;b> `<c>` d');
    expect(inertMarkdown('~~~\n<x>\n~~~\n<y>')).toBe('~~~\n<x>\n~~~\n&lt;y>');
  });

  it('points script links nowhere and closes an open fence', () => {
    expect(inertMarkdown('[a](javascript:x) [b]( JavaScript:y)')).toBe(
      '[a](unsafe-javascript:x) [b]( unsafe-JavaScript:y)',
    );
    expect(inertMarkdown('\\`<x>` a & b x\r<y>')).toBe('\\`&lt;x>` a &amp; b x\r&lt;y>');
    expect(inertMarkdown('```\n<x>\n  ```\n<y>')).toBe('```\n<x>\n  ```\n&lt;y>');
    expect(inertMarkdown('  ```\n<x>')).toBe('  ```\n&lt;x>');
    expect(inertMarkdown('[r]: data:text/html,x')).toBe('[r]: unsafe-data:text/html,x');
    expect(inertMarkdown('````\ncode')).toBe('````\ncode\n````');
  });
});

describe('the Markdown export of a long text', () => {
  it('writes a reply of 200,000 lines (pushed line by line: spread as arguments they overflow the stack)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agentdash-md-long-'));
    try {
      const id = nextSessionId();
      const at = basesOf(id);
      writeLines(join(home, 'projects', '-home-user-proj', `${id}.jsonl`), [
        prompt(at('u1', null, 0), 'Print a lot.'),
        assistantText(at('a1', 'u1', 1), 'msg_long_1', 'line\n'.repeat(200_000)),
      ]);
      const [group] = groupSessions((await discoverFiles([home])).files);
      let lines = 0;
      for await (const piece of markdownChunks(await loadSession(group!))) lines += piece.split('\n').length - 1;
      expect(lines).toBeGreaterThan(200_000);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
