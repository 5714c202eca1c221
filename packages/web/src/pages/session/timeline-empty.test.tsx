import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { TimelineEmpty } from './SessionPlaceholders';

it('says a session of warm-up requests alone is that, not "no messages yet"', () => {
  const warmups = renderToStaticMarkup(<TimelineEmpty warmups={2} />);
  expect(warmups).toContain('data-testid="timeline-warmups"');
  expect(warmups).toContain('only 2 warm-up requests');
  expect(warmups).not.toContain('no messages yet');
  expect(renderToStaticMarkup(<TimelineEmpty warmups={1} />)).toContain('only a warm-up request');
  expect(renderToStaticMarkup(<TimelineEmpty />)).toContain('This session has no messages yet.');
});
