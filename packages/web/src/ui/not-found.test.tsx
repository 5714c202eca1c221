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
});
