import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NotFoundPage } from './NotFoundPage';

describe('the page of an address of no page', () => {
  it('says the address, escaped, and links to the pages there are', () => {
    const html = renderToStaticMarkup(<NotFoundPage address={'#/<img src=x onerror=alert(1)>'} />);
    expect(html).toContain('data-testid="not-found"');
    expect(html).toContain('<code>#/&lt;img src=x onerror=alert(1)&gt;</code>');
    expect(html).not.toContain('<img');
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['#/', '#/analytics', '#/usage']);
  });

  it('links to the session an address under it names', () => {
    const id = 'cd11f12b-b0ad-4540-90e3-b4254028db1f';
    const html = renderToStaticMarkup(<NotFoundPage address={`#/s/${id}/diff`} session={id} />);
    expect(html).toContain(`the session <a href="#/s/${id}">cd11f12b</a>`);
  });
});
