import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LoggedImage } from './common';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('LoggedImage', () => {
  it('shows an image whose data is base64', () => {
    const html = renderToStaticMarkup(
      <LoggedImage img={{ kind: 'image', mediaType: 'image/png', data: PNG }} alt="a" testId="t" />,
    );
    expect(html).toBe(`<img class="img-result" src="data:image/png;base64,${PNG}" alt="a" data-testid="t"/>`);
  });

  it('says so, without a broken image, when the transcript holds no image data', () => {
    for (const data of ['', '[REDACTED:private-key]', 'iVBOR [trimmed for fixture]', '<script>']) {
      const html = renderToStaticMarkup(
        <LoggedImage img={{ kind: 'image', mediaType: 'image/png', data }} alt="attachment 1" testId="t" />,
      );
      expect(html, data).toBe(
        '<span class="img-missing" data-testid="t-missing">attachment 1: not shown, its data in the transcript is not a readable image</span>',
      );
    }
  });

  it('says so for a type that is no raster image, whatever its data (SVG, HTML, an attribute in the type)', () => {
    for (const mediaType of ['image/svg+xml', 'text/html', 'image/png;x=1" onerror="alert(1)', 'application/pdf']) {
      const html = renderToStaticMarkup(
        <LoggedImage img={{ kind: 'image', mediaType, data: PNG }} alt="attachment 1" testId="t" />,
      );
      expect(html, mediaType).toMatch(/^<span class="img-missing"/);
    }
  });

  it('shows base64 with line breaks and spaces in it, and not base64 with a stray character after white space', () => {
    const html = renderToStaticMarkup(
      <LoggedImage img={{ kind: 'image', mediaType: 'image/png', data: `${' '.repeat(2000)}!` }} alt="a" testId="t" />,
    );
    expect(html).toMatch(/^<span class="img-missing"/);
    const spaced = `${PNG.slice(0, 20)}\n  ${PNG.slice(20)}`;
    const shown = renderToStaticMarkup(
      <LoggedImage img={{ kind: 'image', mediaType: 'image/png', data: spaced }} alt="a" testId="t" />,
    );
    expect(shown).toMatch(/^<img /);
  });
});
