/**
 * A command whose stdout is an image (Claude Code's `isImage`: the client writes a data URL) showed its base64 in
 * the terminal with an "image output" badge (a review: 12,000 characters of `data:image/png;base64,…`). It shows the
 * image now, as a Read of an image does.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { CallDto, TypedResult } from '../data/types';
import { BashRenderer } from './shell';
import { callOf } from './test-call';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

it("shows a command's image output as the image, not its base64", () => {
  const typed = {
    kind: 'bash',
    tool: 'Bash',
    data: { stdout: `data:image/png;base64,${PNG}`, stderr: '', interrupted: false, isImage: true },
  } as TypedResult;
  const base = callOf('Bash', { command: 'plot --png' }, '', typed, 'bash', { command: 'plot --png' });
  const call: CallDto = {
    ...base,
    result: base.result && { ...base.result, images: [{ kind: 'image', mediaType: 'image/png', data: PNG }] },
  };
  const html = renderToStaticMarkup(<BashRenderer call={call} />);
  expect(html).toContain(`<img class="img-result" src="data:image/png;base64,${PNG}"`);
  expect(html).not.toContain('data:image/png;base64,iVBOR</');
  expect(html.split(PNG).length - 1).toBe(1);
  expect(html).toContain('Its output is an image:');
});
