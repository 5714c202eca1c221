import { dataKinds } from '@agentdash/core/model';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DataKind, TypedResult } from './data/types';
import { rendererFor } from './renderers';
import { callOf } from './renderers/test-call';
import { Ansi } from './ui/Ansi';
import { fmtDuration, shortPath } from './ui/format';
import { Markdown } from './ui/Markdown';
import { parseHash, sessionHref } from './ui/router';
import { Snippet } from './ui/Snippet';

const evil = '<img src=x onerror=alert(1)><script>alert(2)</script>';
/** The typed input renderers read, every text field hostile. */
const evilInput = {
  command: evil,
  description: evil,
  filePath: evil,
  pattern: evil,
  path: evil,
  query: evil,
  url: evil,
  prompt: evil,
  plan: evil,
  skillName: evil,
  taskId: evil,
  subject: evil,
};

const call = (name: string, input: unknown, content: string, typed: TypedResult, toolKind: DataKind | null) =>
  callOf(name, input, content, typed, toolKind, evilInput);

const evilBash: TypedResult = { kind: 'bash', tool: 'Bash', data: { stdout: evil, stderr: '', interrupted: false } };

describe('log content is escaped', () => {
  it('markdown shows raw HTML as text and drops unsafe links', () => {
    // Raw HTML is shown as the text it is, escaped, never dropped (`bold?` and the tags stay readable).
    const shown = renderToStaticMarkup(
      <Markdown text={'<div>\n<b>bold?</b> &amp; <u>x</u>\n</div>\n\nsee <iframe src=x></iframe>'} />,
    );
    expect(shown).toContain('&lt;b&gt;bold?&lt;/b&gt;');
    expect(shown).toContain('&lt;u&gt;x&lt;/u&gt;');
    expect(shown).toContain('&lt;iframe src=x&gt;&lt;/iframe&gt;');
    expect(shown.replace(/^<div class="md">/, '')).not.toMatch(/<(b|u|iframe|div)[ >]/);
    const html = renderToStaticMarkup(<Markdown text={`hi ${evil} [x](javascript:alert(1)) **b**`} />);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<strong>b</strong>');
  });

  it('ANSI: a hyperlink keeps its words, titles, erases and stray controls are dropped, colours kept', () => {
    const html = renderToStaticMarkup(
      <Ansi
        text={'\u001b]0;PWNED\u0007\u001b[2J\u001b[32mok\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\u0008'}
      />,
    );
    expect(html).toContain('link');
    expect(html).toContain('color:rgb(');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be left
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|PWNED|\[2J|http:\/\/x/);
  });

  it('ANSI colours become spans, text stays text', () => {
    const html = renderToStaticMarkup(<Ansi text={`\u001b[31mred ${evil}\u001b[0m plain`} />);
    expect(html).toContain('color:rgb(');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
  });

  it('search snippets only mark the highlighted parts', () => {
    const html = renderToStaticMarkup(<Snippet text={`a \u0001hit\u0002 ${evil}`} />);
    expect(html).toContain('<mark>hit</mark>');
    expect(html).not.toContain('<script');
  });

  it("a write to a running shell (Codex write_stdin) names its session, not an empty '$' line", () => {
    const poll = {
      ...call('write_stdin', { session_id: 44923, chars: '' }, 'Process running', evilBash, 'bash'),
      typedInput: { taskId: '44923' },
    };
    const Bash = rendererFor(poll);
    const html = renderToStaticMarkup(<Bash call={poll} />);
    expect(html).toContain('# to session 44923');
  });

  it('tool renderers escape commands and output', () => {
    const bash = call('Bash', { command: evil }, evil, evilBash, 'bash');
    const Bash = rendererFor(bash);
    const html = renderToStaticMarkup(<Bash call={bash} />);
    expect(html).not.toContain('<script');
    expect(html).toContain('data-testid="renderer-Bash"');
    const unknown = call(
      'SomethingNew',
      { x: evil },
      evil,
      { kind: 'unknown', tool: 'SomethingNew', content: evil, toolUseResult: { y: evil } },
      null,
    );
    const Generic = rendererFor(unknown);
    const out = renderToStaticMarkup(<Generic call={unknown} />);
    expect(out).toContain('data-testid="renderer-generic"');
    expect(out).not.toContain('<script');
  });

  it('every kind has a renderer, which escapes a call that has no result yet', () => {
    const ids = new Set<string>();
    for (const kind of dataKinds) {
      const pending = { ...call('Tool', { text: evil }, '', evilBash, kind), status: 'pending' as const, result: null };
      const Renderer = rendererFor(pending);
      const out = renderToStaticMarkup(<Renderer call={pending} />);
      expect(out, kind).not.toContain('<script');
      ids.add(/data-testid="(renderer-[^"]+)"/.exec(out)?.[1] ?? `none for ${kind}`);
    }
    expect([...ids].filter((id) => id.startsWith('none') || id === 'renderer-generic')).toEqual([]);
  });
});

describe('helpers', () => {
  it('routes by hash', () => {
    expect(parseHash('#/')).toEqual({ page: 'sessions', query: '' });
    expect(parseHash('#/?q=npm%20test&errors=1')).toEqual({ page: 'sessions', query: 'q=npm%20test&errors=1' });
    expect(parseHash('#/analytics')).toEqual({ page: 'analytics', query: '' });
    expect(parseHash('#/usage?range=7d&metric=tokens')).toEqual({ page: 'usage', query: 'range=7d&metric=tokens' });
    expect(parseHash(sessionHref('abc', 'toolu_9'))).toEqual({ page: 'session', id: 'abc', call: 'toolu_9' });
    // A session reference with a folder (two folders hold a session `full`) and a synthetic call id survive.
    expect(parseHash(sessionHref('checkpoint-a/full', '~3@/x/full.jsonl#1'))).toEqual({
      page: 'session',
      id: 'checkpoint-a/full',
      call: '~3@/x/full.jsonl#1',
    });
  });

  it('formats durations and paths', () => {
    expect(fmtDuration(12)).toBe('12 ms');
    expect(fmtDuration(1500)).toBe('1.5 s');
    expect(fmtDuration(125_000)).toBe('2 min 5 s');
    expect(fmtDuration(null)).toBe('—');
    expect(shortPath('/home/user/proj/api')).toBe('…/proj/api');
  });
});
