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
});
