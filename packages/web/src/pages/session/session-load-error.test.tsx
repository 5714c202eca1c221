import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SessionLoadError } from './SessionPlaceholders';

describe('the page of a session that could not be loaded', () => {
  it('links each session an ambiguous reference names', () => {
    const candidates = ['01a205f0-aaaa', '01a205f0-bbbb@proj', 'stored/key'];
    const message = 'session "01a205f0" matches 3 sessions; name one of them: 01a205f0-aaaa, … (or give its file)';
    const html = renderToStaticMarkup(<SessionLoadError error={{ status: 409, message, candidates }} />);
    expect(html.match(/href="[^"]*"/g)).toEqual([
      'href="#/s/01a205f0-aaaa"',
      'href="#/s/01a205f0-bbbb%40proj"',
      'href="#/s/stored%2Fkey"',
      'href="#/"',
    ]);
  });

  it('has no list for another error', () => {
    const html = renderToStaticMarkup(<SessionLoadError error={{ status: 404, message: 'session not found' }} />);
    expect(html).not.toContain('session-candidates');
    // said once: the server's words repeated the heading
    expect(html.match(/session not found/gi)).toHaveLength(1);
    const other = renderToStaticMarkup(<SessionLoadError error={{ status: 500, message: 'database is locked' }} />);
    expect(other).toContain('<p>database is locked</p>');
  });
});
